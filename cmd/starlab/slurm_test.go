package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"starlab/runs"
)

// TestSlurm submits a 4-shard match and a 4-shard collect to a Slurm
// cluster through deploy/slurm/submit.sh, waits for the merge jobs, and
// compares the merged runs with unsharded ones. It runs under make
// test-slurm (STARLAB_SLURM=1, after deploy/slurm/localcluster.sh start has
// started a one-node cluster); elsewhere it skips.
func TestSlurm(t *testing.T) {
	if os.Getenv("STARLAB_SLURM") != "1" {
		t.Skip("needs a Slurm cluster: make test-slurm")
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		t.Fatal("STARLAB_SLURM=1 but no sbatch on PATH")
	}
	// The shards run on the cluster's nodes, so under the job's own
	// binary; here that is a fresh build on this machine's storage.
	dir := t.TempDir()
	bin := filepath.Join(dir, "starlab")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	submit, err := filepath.Abs("../../deploy/slurm/submit.sh")
	if err != nil {
		t.Fatal(err)
	}
	jobs := map[string][]string{
		"match":   shardMatchArgs,
		"collect": collectArgs[:len(collectArgs)-1], // without -json
	}
	var ids []string
	for name, args := range jobs {
		cmd := exec.Command(submit, append([]string{"4", filepath.Join(dir, name)}, args...)...)
		cmd.Env = append(os.Environ(), "STARLAB="+bin)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("submit.sh %s: %v\n%s", name, err, out)
		}
		ids = append(ids, strings.Fields(string(out))...)
	}
	// Run the unsharded stages here while the cluster works.
	for name, args := range jobs {
		if code, _, stderr := runCmd(t, append(args, "-out", filepath.Join(dir, name+"-whole"))...); code != 0 {
			t.Fatalf("unsharded %s: %s", name, stderr)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for {
		out, err := exec.CommandContext(ctx, "squeue", "-h", "-o", "%i %T", "-j", strings.Join(ids, ",")).Output()
		if err == nil && strings.TrimSpace(string(out)) == "" {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("jobs %v not finished after 10 minutes: %s", ids, out)
		}
		time.Sleep(time.Second)
	}
	for name := range jobs {
		merged := filepath.Join(dir, name, "merged")
		if r, err := runs.Open(merged); err != nil || r.Manifest().Status != runs.StatusDone {
			logs, _ := filepath.Glob(filepath.Join(dir, name, "logs", "*"))
			var text strings.Builder
			for _, l := range logs {
				b, _ := os.ReadFile(l)
				text.WriteString(l + ":\n" + string(b))
			}
			t.Fatalf("%s: merged run not done (%v)\n%s", name, err, text.String())
		}
		if _, err := os.Stat(filepath.Join(merged, "report.html")); err != nil {
			t.Errorf("%s: the merge job wrote no report: %v", name, err)
		}
	}
	sameMatch(t, filepath.Join(dir, "match", "merged"), filepath.Join(dir, "match-whole"))
	sameCollect(t, filepath.Join(dir, "collect", "merged"), filepath.Join(dir, "collect-whole"))
}
