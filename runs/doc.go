// Package runs manages run directories: the one directory each stage of
// starlab (train, collect, fit, match, ...) writes everything into.
//
// # Run directories
//
// [Create] makes a new directory under a root (the command's default is
// "out") named after the UTC start time and the command, such as
// 20261122-223401-match, so names sort by start time. If the name is taken
// it tries 20261122-223401-match-2, -3, and so on; os.Mkdir fails when a
// directory exists, so two processes starting in the same second never share
// one. [CreateAt] uses a directory the user named (--out DIR) and refuses to
// write into one that holds a run already or any other files.
//
// # Manifest
//
// Every run directory holds manifest.json, the [Manifest], written when the
// run starts and rewritten when it resumes or finishes:
//
//	{
//	  "version": 1,                     // format version, checked by Open
//	  "command": "match",               // the subcommand
//	  "args": ["match", "-games", "400"],
//	  "settings": {...},                // the resolved configuration
//	  "seed": 42,
//	  "build": "(devel) 1a2b3c...+modified", // module version, vcs revision, modified
//	  "go_version": "go1.26.8",
//	  "start": "2026-11-22T22:34:01.123Z",
//	  "end": "2026-11-22T23:10:12.456Z",     // absent while running
//	  "status": "done",                 // "running", "done" or "failed"
//	  "error": "...",                   // why it failed; absent otherwise
//	  "resumes": ["2026-11-22T22:50:00Z"]    // one entry per resume
//	}
//
// [Open] rejects a manifest whose version is not [FormatVersion], with an
// error naming the file.
//
// # Atomic writes
//
// Artifacts and the manifest are written by [WriteFileAtomic]: into a
// temporary file in the same directory, which is synced, closed and renamed
// over the target, after which the directory is synced too. A file that
// exists under its final name is therefore whole: a crash or a failed write
// leaves either the old content or the new, never a mixture, and a failed
// write removes its temporary file.
//
// # Checkpoints and resume
//
// A long stage records each finished unit of work (a game pair, a batch of
// positions) as one line of JSON in a [Journal], written by one write call
// before Append returns and fsynced (after every record, or at most once per
// [Journal.SetSyncInterval]). A record is one write call, so a process killed at any moment
// leaves at most a partial last line, which [LoadJournal] ignores and
// [OpenJournal] truncates away. A process that dies without calling
// [Run.Finish] leaves its manifest with status "running", and one stopped by
// an error or an interrupt ends "failed"; [FindUnfinished] lists both kinds,
// newest first. To resume, a command calls [Open] and
// [Run.Resume], replays the journal with [LoadJournal] to learn what is done,
// reopens it with [OpenJournal] and carries on with the rest. Work is counted
// once because a unit counts only when its record is in the journal, and
// everything derived from it is recomputed from the journal.
//
// # One owner
//
// A process owns the run it creates or resumes through an exclusive flock
// on the directory's .lock file, which the kernel releases however the
// process ends; [Run.Resume] of a run another process holds fails with
// [ErrLocked], and [FindUnfinished] leaves such runs out. [Start] is the
// one lifecycle of a stage: create (in -out DIR or a new directory under
// the root) or resume (a directory, or "latest"), locked. [Run.Finish]
// records done, failed, or "interrupted" for a cancelled context, and
// releases the lock. A run killed in its first milliseconds leaves only a
// lock file and a temporary manifest, and [CreateAt] takes such a
// directory as empty.
//
// # Journals, Parquet, workers, shards
//
// A journal's first line names the format of its records, checked when it
// is loaded or reopened. [WriteParquet] writes rows of a Go type as a
// Snappy-compressed Parquet file, atomically, with the key-value metadata
// [FormatKey] naming its schema and version; [ReadParquet] reads one back,
// refusing in one line naming the file a foreign format, a missing or
// mistyped column, or a file that is not Parquet; [ReadOldParquet] reads a
// file of an earlier version of a schema, which lacked some of the
// columns, into the rows of all its versions. [Pool] runs jobs on
// workers that each own their state (engines, tables). A [Shard] i/N owns
// the units whose index is i modulo N. A [UsageError] marks a bad setting
// (commands exit 2 on it), a [Progress] callback carries a stage's progress
// to whoever draws it.
package runs
