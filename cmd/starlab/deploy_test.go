//go:build integration

// The Kubernetes checks decode the manifests with the Kubernetes API
// types, whose build is long: make test-integration runs them, and CI with it.

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"starlab/runs"
	"starlab/selfplay"
)

// kubeDir holds the Kubernetes manifests that docs/scaling-out.md tells
// users to apply as they are.
const kubeDir = "../../deploy/kubernetes"

// kubeDecoder decodes the manifests into the Kubernetes API types of
// their apiVersion and kind (batch/v1 Job, v1 PersistentVolumeClaim), as
// the API server's strict field validation does: an unknown or misspelt
// field (names match with their case), a duplicated key or a value of the
// wrong type is an error.
var kubeDecoder = func() runtime.Decoder {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{batchv1.AddToScheme, corev1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	return serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
}()

// decodeKube decodes one manifest strictly into its Kubernetes API type.
func decodeKube(data []byte) (runtime.Object, error) {
	obj, _, err := kubeDecoder.Decode(data, nil, nil)
	if err != nil {
		return nil, err
	}
	return obj, nil
}

// readJob decodes the Job manifest name of deploy/kubernetes.
func readJob(t *testing.T, name string) *batchv1.Job {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(kubeDir, name))
	if err != nil {
		t.Fatal(err)
	}
	obj, err := decodeKube(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	job, ok := obj.(*batchv1.Job)
	if !ok {
		t.Fatalf("%s: a %T, not a Job", name, obj)
	}
	return job
}

// TestKubernetesManifests decodes every manifest under deploy/kubernetes
// strictly into the Kubernetes API types, and checks that the decoding
// refuses a misspelt field, so that it would catch one in the manifests.
func TestKubernetesManifests(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(kubeDir, "*.yaml"))
	if err != nil || len(files) != 3 {
		t.Fatalf("manifests %v (%v); want volume.yaml, shards.yaml and merge.yaml", files, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if regexp.MustCompile(`(?m)^---`).Match(data) {
			t.Errorf("%s: more than one document; the test decodes one per file", f)
		}
		if _, err := decodeKube(data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		for _, typo := range []struct{ field, yaml string }{
			{"restartPolicyy", "\nspec:\n  restartPolicyy: Never\n"},
			{"Spec", "\nSpec:\n"},
		} {
			bad := strings.Replace(string(data), "\nspec:\n", typo.yaml, 1)
			if bad == string(data) {
				t.Fatalf("%s: no top-level spec to misspell a field in", f)
			}
			if _, err := decodeKube([]byte(bad)); err == nil || !strings.Contains(err.Error(), typo.field) {
				t.Errorf("%s with the misspelt field %s: %v; want the field refused", f, typo.field, err)
			}
		}
	}
}

// podScript returns a Job's shell script (its container runs it with
// /bin/sh -c), its environment and its volume's mount path.
func podScript(t *testing.T, job *batchv1.Job) (script string, env []string, mount string) {
	t.Helper()
	spec := job.Spec.Template.Spec
	if len(spec.Containers) != 1 {
		t.Fatalf("job %s: %d containers, want 1", job.Name, len(spec.Containers))
	}
	c := spec.Containers[0]
	if strings.Join(c.Command, " ") != "/bin/sh -c" || len(c.Args) != 1 {
		t.Fatalf("job %s: command %q args %q; want /bin/sh -c SCRIPT", job.Name, c.Command, c.Args)
	}
	for _, e := range c.Env {
		env = append(env, e.Name+"="+e.Value)
	}
	if len(c.VolumeMounts) != 1 {
		t.Fatalf("job %s: %d volume mounts, want 1", job.Name, len(c.VolumeMounts))
	}
	mount = c.VolumeMounts[0].MountPath
	if !strings.Contains(c.Args[0], mount+"/") {
		t.Fatalf("job %s: the script writes nothing under the volume %s", job.Name, mount)
	}
	return c.Args[0], env, mount
}

// podShell returns the shell that runs the pods' scripts here: dash, which
// is /bin/sh in the image (Debian's), so that a script that needs more than
// POSIX sh fails here as it would in a pod; /bin/sh where dash is missing.
func podShell(t *testing.T) string {
	t.Helper()
	if sh, err := exec.LookPath("dash"); err == nil {
		return sh
	}
	t.Log("no dash on PATH: the pods' scripts run with /bin/sh")
	return "/bin/sh"
}

// kubeGames is the games count the pod test plays in place of the
// manifest's, so that it takes seconds: two pairs per shard of four.
const kubeGames = 16

// TestKubernetesJobs runs the shell script of every pod of shards.yaml
// (JOB_COMPLETION_INDEX 0..N-1, the container's environment, the volume's
// mount path replaced by a temporary directory, a fresh build as starlab on
// PATH), one pod killed once and started again as Kubernetes retries it,
// then merge.yaml's script, and checks the merged run against the same
// script run as one shard of one. The scripts are the manifests' own but
// for the games count, which is cut to kubeGames, and run with the image's
// shell (podShell).
func TestKubernetesJobs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds starlab and plays a sharded match")
	}
	dir := t.TempDir()
	binDir := filepath.Join(dir, "bin")
	if err := os.Mkdir(binDir, 0o755); err != nil {
		t.Fatal(err)
	}
	buildStarlab(t, binDir)
	data := filepath.Join(dir, "data")
	work := filepath.Join(dir, "starlab") // the image's working directory
	for _, d := range []string{data, work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	games := regexp.MustCompile(`-games [0-9]+`)
	shell := podShell(t)
	// pod returns the command that runs job's script as pod index with
	// extra environment.
	pod := func(job *batchv1.Job, extra ...string) *exec.Cmd {
		script, env, mount := podScript(t, job)
		if n := len(games.FindAllString(script, -1)); job.Name == "starlab-shards" && n != 1 {
			t.Fatalf("job %s: %d -games arguments in the script, want 1", job.Name, n)
		}
		script = games.ReplaceAllString(script, "-games "+strconv.Itoa(kubeGames))
		script = strings.ReplaceAll(script, mount, data)
		cmd := exec.Command(shell, "-c", script)
		cmd.Dir = work
		cmd.Env = append(append([]string{"PATH=" + binDir + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + dir}, env...), extra...)
		return cmd
	}
	shards := readJob(t, "shards.yaml")
	if shards.Spec.CompletionMode == nil || *shards.Spec.CompletionMode != batchv1.IndexedCompletion || shards.Spec.Completions == nil {
		t.Fatal("shards.yaml: not an Indexed Job with completions")
	}
	n := int(*shards.Spec.Completions)
	var runName string
	for _, e := range shards.Spec.Template.Spec.Containers[0].Env {
		if e.Name == "RUN" {
			runName = e.Value
		}
	}
	for i := 0; i < n; i++ {
		index := "JOB_COMPLETION_INDEX=" + strconv.Itoa(i)
		if i == 0 {
			// Killed once its run has started; the retried pod resumes it.
			cmd := pod(shards, index)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			manifest := filepath.Join(data, runName, "shard-0", runs.ManifestName)
			deadline := time.Now().Add(60 * time.Second)
			for {
				if _, err := os.Stat(manifest); err == nil {
					break
				}
				select {
				case err := <-exited:
					t.Fatalf("pod 0 of shards.yaml: %v before it started a run\n%s", err, out.String())
				default:
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					<-exited
					t.Fatalf("pod 0 wrote no %s in 60 s", manifest)
				}
				time.Sleep(time.Millisecond)
			}
			cmd.Process.Kill()
			<-exited
			if r, err := runs.Open(filepath.Dir(manifest)); err != nil || r.Manifest().Status == runs.StatusDone {
				t.Logf("pod 0 finished before the kill (%v): its retry is not tried", err)
				continue
			}
		}
		if out, err := pod(shards, index).CombinedOutput(); err != nil {
			t.Fatalf("pod %d of shards.yaml: %v\n%s", i, err, out)
		}
	}
	// A pod retried after its shard finished (evicted after the run was
	// done) succeeds and leaves the run as it was.
	if out, err := pod(shards, "JOB_COMPLETION_INDEX="+strconv.Itoa(n-1)).CombinedOutput(); err != nil {
		t.Fatalf("pod %d of shards.yaml retried after its shard finished: %v\n%s", n-1, err, out)
	}
	if out, err := pod(readJob(t, "merge.yaml")).CombinedOutput(); err != nil {
		t.Fatalf("merge.yaml: %v\n%s", err, out)
	}
	merged := filepath.Join(data, runName, "merged")
	if r, err := runs.Open(merged); err != nil || r.Manifest().Status != runs.StatusDone {
		t.Fatalf("%s: not a finished run (%v)", merged, err)
	}
	if _, err := os.Stat(filepath.Join(merged, "report.html")); err != nil {
		t.Errorf("the merge job wrote no report: %v", err)
	}
	// The unsharded run: the same pod script as the only shard of one.
	if out, err := pod(shards, "JOB_COMPLETION_INDEX=0", "SHARDS=1", "RUN=whole").CombinedOutput(); err != nil {
		t.Fatalf("the script as one shard: %v\n%s", err, out)
	}
	whole := filepath.Join(data, "whole", "shard-0")
	var w selfplay.MatchReport
	readJSONFile(t, filepath.Join(whole, selfplay.SummaryFile), &w)
	if len(w.Pairings) != 1 || w.Pairings[0].Games != kubeGames {
		t.Fatalf("the unsharded run: %+v; want one pairing of %d games", w.Pairings, kubeGames)
	}
	sameMatch(t, merged, whole)
}
