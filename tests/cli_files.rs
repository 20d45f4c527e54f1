//! Files written whole or not at all (issue 12, item 4): `--out` is replaced by a rename, so a
//! killed `generate` leaves the previous file or the whole new one; concurrent writers of one
//! file leave one whole file; rendering directories are swapped in as a whole; an output that is
//! an input is refused; a truncated words file is refused by `run`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ncomplete"))
}

fn ncomplete(args: &[&str]) -> Output {
    bin().args(args).output().expect("runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(args: &[&str]) -> Output {
    let o = ncomplete(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    o
}

fn fails_with_2(args: &[&str]) -> String {
    let o = ncomplete(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    stderr(&o)
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ncomplete-files-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn model(dir: &Path) -> String {
    let path = dir.join("coffeemachine.dot");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("models/coffeemachine.dot"),
        &path,
    )
    .unwrap();
    path.display().to_string()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Files in `dir` whose names do not start with `.` (temporary files of killed writers do).
fn visible(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    v.sort();
    v
}

#[test]
fn killing_generate_leaves_the_old_file_or_the_whole_new_one() {
    let dir = scratch("kill");
    let m = model(&dir);
    let out = dir.join("suite.json");
    let big = dir.join("reference.json");
    // The old file: a small valid suite. The new one: a suite of about 10 MB that takes a while.
    ok(&["generate", &m, "--method", "w", "--out", s(&out), "--quiet"]);
    let old = std::fs::read(&out).unwrap();
    let args = ["generate", &m, "--method", "w", "--extra-states", "4"];
    let started = std::time::Instant::now();
    ok(&[&args[..], &["--out", s(&big), "--quiet"]].concat());
    let full_time = started.elapsed();
    let new = std::fs::read(&big).unwrap();
    assert!(new.len() > 1_000_000);
    // Kill moments spread over the run, with jitter from the clock so runs differ.
    let jitter = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    let mut seen_old = false;
    for k in 0..6u64 {
        let fraction = (k * 170 + jitter % 97) % 1000;
        let delay = full_time.mul_f64(fraction as f64 / 1000.0);
        let mut child = bin()
            .args(args)
            .args(["--out", s(&out), "--quiet"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        child.kill().unwrap(); // SIGKILL on Unix: no clean-up runs
        let status = child.wait().unwrap();
        let now = std::fs::read(&out).unwrap();
        assert!(
            now == old || now == new,
            "after a kill at {delay:?} ({status}) the file has {} bytes: neither the old ({}) nor the new ({}) suite",
            now.len(),
            old.len(),
            new.len()
        );
        seen_old |= now == old;
        // Start the next round from the old file again.
        std::fs::write(&out, &old).unwrap();
    }
    // The earliest kill (well before the run ends) must have left the old file.
    assert!(seen_old, "no kill happened before the rename");
    assert_eq!(
        visible(&dir),
        ["coffeemachine.dot", "reference.json", "suite.json"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn concurrent_writers_of_one_file_leave_one_whole_suite() {
    let dir = scratch("concurrent");
    let m = model(&dir);
    let out = dir.join("same.json");
    let extra = ["1", "2", "3"];
    let mut wanted = Vec::new();
    for e in extra {
        let r = dir.join(format!("ref{e}.json"));
        ok(&[
            "generate",
            &m,
            "--method",
            "w",
            "--extra-states",
            e,
            "--out",
            s(&r),
        ]);
        wanted.push(std::fs::read(&r).unwrap());
    }
    for _trial in 0..3 {
        let children: Vec<_> = extra
            .iter()
            .map(|e| {
                bin()
                    .args(["generate", &m, "--method", "w", "--extra-states", e])
                    .args(["--out", s(&out), "--quiet"])
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut c in children {
            assert!(c.wait().unwrap().success());
        }
        let got = std::fs::read(&out).unwrap();
        assert!(
            wanted.contains(&got),
            "{} bytes: not one whole suite",
            got.len()
        );
        ncomplete::suite::read_suite(std::str::from_utf8(&got).unwrap()).unwrap();
    }
    assert_eq!(
        visible(&dir),
        [
            "coffeemachine.dot",
            "ref1.json",
            "ref2.json",
            "ref3.json",
            "same.json"
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_output_that_is_an_input_is_refused_before_writing() {
    let dir = scratch("inputs");
    let m = model(&dir);
    let before = std::fs::read(&m).unwrap();
    // The same file under another spelling.
    let other = dir.join(".").join("coffeemachine.dot");
    let e = fails_with_2(&["generate", &m, "--out", s(&other)]);
    assert!(e.contains("is the input file"), "{e}");
    let e = fails_with_2(&["convert", &m, "--to", "dot", "--out", &m]);
    assert!(e.contains("is the input file"), "{e}");
    let e = fails_with_2(&["distinguish", &m, "--suite", &m]);
    assert!(e.contains("is the input file"), "{e}");
    let e = fails_with_2(&["generate", &m, "--format", "python", "--out", s(&dir)]);
    assert!(e.contains("holds the input"), "{e}");
    let e = fails_with_2(&["mutate", &m, "--extra-states", "0", "--out", s(&dir)]);
    assert!(e.contains("holds the input"), "{e}");
    #[cfg(unix)]
    {
        let link = dir.join("link.dot");
        std::os::unix::fs::symlink(&m, &link).unwrap();
        let e = fails_with_2(&["convert", &m, "--to", "dot", "--out", s(&link)]);
        assert!(e.contains("is the input file"), "{e}");
    }
    assert_eq!(std::fs::read(&m).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_rendering_directory_is_replaced_as_a_whole() {
    let dir = scratch("render");
    let m = model(&dir);
    let out = dir.join("out");
    ok(&["generate", &m, "--format", "python", "--out", s(&out)]);
    assert_eq!(
        visible(&out),
        [
            "ncomplete_runtime.py",
            "suite.json",
            "test_coffeemachine.py"
        ]
    );
    // A Rust rendering replaces the Python one: no stale module survives, but a file the user
    // added (a pytest fixture with their adapter) does.
    std::fs::write(out.join("conftest.py"), "# mine\n").unwrap();
    // (Another format is written over only with --force.)
    let e = fails_with_2(&["generate", &m, "--format", "rust", "--out", s(&out)]);
    assert!(e.contains("holds a python rendering"), "{e}");
    ok(&[
        "generate",
        &m,
        "--format",
        "rust",
        "--out",
        s(&out),
        "--force",
    ]);
    assert_eq!(
        visible(&out),
        ["Cargo.toml", "conftest.py", "src", "suite.json", "tests"]
    );
    std::fs::remove_file(out.join("conftest.py")).unwrap();
    // Rendering the suite inside the directory keeps it.
    let suite = out.join("suite.json");
    let json = std::fs::read(&suite).unwrap();
    ok(&[
        "render",
        s(&suite),
        "--format",
        "ttcn",
        "--out",
        s(&out),
        "--force",
    ]);
    assert_eq!(
        visible(&out),
        [
            "LabelPort.cc",
            "LabelPort.hh",
            "coffeemachine_control.ttcn",
            "coffeemachine_part_001.ttcn",
            "coffeemachine_tests.ttcn",
            "suite.json"
        ]
    );
    assert_eq!(std::fs::read(&suite).unwrap(), json);
    // A failed rendering (a broken template) leaves the last whole rendering and no debris.
    let templates = dir.join("templates");
    std::fs::create_dir_all(templates.join("ttcn")).unwrap();
    std::fs::write(templates.join("ttcn/part.ttcn.j2"), "{% if %}").unwrap();
    let e = fails_with_2(&[
        "generate",
        &m,
        "--format",
        "ttcn",
        "--method",
        "w",
        "--out",
        s(&out),
        "--templates",
        s(&templates),
    ]);
    assert!(e.contains("template"), "{e}");
    assert_eq!(
        visible(&out),
        [
            "LabelPort.cc",
            "LabelPort.hh",
            "coffeemachine_control.ttcn",
            "coffeemachine_part_001.ttcn",
            "coffeemachine_tests.ttcn",
            "suite.json"
        ]
    );
    assert_eq!(std::fs::read(&suite).unwrap(), json);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // A directory ncomplete did not write is never replaced.
    let mine = dir.join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "precious").unwrap();
    let e = fails_with_2(&["render", s(&suite), "--format", "ttcn", "--out", s(&mine)]);
    assert!(e.contains("not written by ncomplete"), "{e}");
    assert_eq!(visible(&mine), ["notes.txt"]);
    // Mutants of an earlier, larger run do not survive a smaller one.
    let mutants = dir.join("mutants");
    ok(&[
        "mutate",
        &m,
        "--extra-states",
        "0",
        "--count",
        "6",
        "--out",
        s(&mutants),
    ]);
    let six = visible(&mutants).len();
    ok(&[
        "mutate",
        &m,
        "--extra-states",
        "0",
        "--count",
        "2",
        "--out",
        s(&mutants),
    ]);
    assert_eq!(
        visible(&mutants).len(),
        3,
        "two mutants and index.json (was {six})"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn run_refuses_a_truncated_words_file() {
    let dir = scratch("words");
    let m = model(&dir);
    let words = dir.join("w.txt");
    ok(&[
        "generate",
        &m,
        "--method",
        "hads",
        "--format",
        "words",
        "--out",
        s(&words),
    ]);
    let text = std::fs::read_to_string(&words).unwrap();
    let run = |path: &Path| ncomplete(&["run", s(path), "--spec", &m, "--model", &m]);
    let whole = run(&words);
    assert!(whole.status.success(), "{}", stderr(&whole));
    assert!(String::from_utf8_lossy(&whole.stdout).contains("42 pass"));
    let e = fails_with_2(&["run", s(&words), "--model", &m]);
    assert!(e.contains("give --spec"), "{e}");
    let cut = dir.join("cut.txt");
    let tests_start = text.find("\nCLEAN").unwrap() + 1;
    // Cut inside the header, inside a test, at a line end, and just before the end marker.
    let end_marker = text.rfind("# end:").unwrap();
    for at in [
        30,
        tests_start + 3,
        tests_start + text[tests_start..].find('\n').unwrap() + 1,
        end_marker,
    ] {
        std::fs::write(&cut, &text[..at]).unwrap();
        let o = run(&cut);
        assert_eq!(o.status.code(), Some(2), "cut at {at}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains("cut short"), "cut at {at}: {e}");
    }
    // A test dropped from the middle is caught by the count.
    let dropped: String = {
        let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
        lines.remove(8);
        lines.concat()
    };
    std::fs::write(&cut, dropped).unwrap();
    let o = run(&cut);
    assert!(
        stderr(&o).contains("states 42 tests, but the file holds 41"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every visible file below `dir` with its contents, sorted.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for name in visible(dir) {
        let path = dir.join(&name);
        if path.is_dir() {
            for (sub, bytes) in tree(&path) {
                out.push((format!("{name}/{sub}"), bytes));
            }
        } else {
            out.push((name, std::fs::read(&path).unwrap()));
        }
    }
    out
}

#[test]
fn killing_generate_leaves_the_old_rendering_or_the_whole_new_one() {
    let dir = scratch("kill-render");
    let m = model(&dir);
    let out = dir.join("ttcn");
    let reference = dir.join("reference");
    ok(&[
        "generate",
        &m,
        "--method",
        "w",
        "--format",
        "ttcn",
        "--out",
        s(&out),
    ]);
    let old = tree(&out);
    let args = [
        "generate",
        &m,
        "--method",
        "w",
        "--extra-states",
        "3",
        "--format",
        "ttcn",
    ];
    let started = std::time::Instant::now();
    ok(&[&args[..], &["--out", s(&reference), "--quiet"]].concat());
    let full_time = started.elapsed();
    let new = tree(&reference);
    for fraction in [0.05, 0.4, 0.8, 1.1] {
        let mut child = bin()
            .args(args)
            .args(["--out", s(&out), "--quiet"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(full_time.mul_f64(fraction));
        child.kill().unwrap();
        child.wait().unwrap();
        let now = tree(&out);
        assert!(
            now == old || now == new,
            "after a kill at {fraction} of the run: {:?}",
            now.iter().map(|(n, b)| (n, b.len())).collect::<Vec<_>>()
        );
        if now == new {
            ok(&[
                "generate",
                &m,
                "--method",
                "w",
                "--format",
                "ttcn",
                "--out",
                s(&out),
            ]);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--out` onto a FIFO, a symbolic link, a hard link, a read-only file, a private device node
/// (root only) and standard output by its `/proc` name: each is left what it was (issue 25).
#[cfg(target_os = "linux")]
#[test]
fn out_leaves_what_it_names_what_it_was() {
    use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _, PermissionsExt as _};
    let dir = scratch("kinds");
    let m = model(&dir);
    let reference = dir.join("reference.json");
    ok(&["generate", &m, "--out", s(&reference), "--quiet"]);
    let suite = std::fs::read(&reference).unwrap();
    let generate = |out: &Path| ncomplete(&["generate", &m, "--out", s(out), "--quiet"]);

    // A FIFO: its reader gets the suite and it stays a FIFO.
    let fifo = dir.join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    assert!(generate(&fifo).status.success());
    assert_eq!(reader.join().unwrap(), suite);
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );

    // A symbolic link: still a link, to the same file, which holds the suite.
    let real = dir.join("real.json");
    std::fs::write(&real, "old").unwrap();
    let link = dir.join("link.json");
    std::os::unix::fs::symlink("real.json", &link).unwrap();
    assert!(generate(&link).status.success());
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("real.json"));
    assert_eq!(std::fs::read(&real).unwrap(), suite);

    // A hard link: both names still share one file, which holds the suite.
    let first = dir.join("first.json");
    let second = dir.join("second.json");
    std::fs::write(&first, "old").unwrap();
    std::fs::hard_link(&first, &second).unwrap();
    assert!(generate(&first).status.success());
    let (a, b) = (
        std::fs::metadata(&first).unwrap(),
        std::fs::metadata(&second).unwrap(),
    );
    assert_eq!((a.ino(), a.nlink()), (b.ino(), 2));
    assert_eq!(std::fs::read(&second).unwrap(), suite);

    // A read-only file: refused (exit 2), untouched.
    let read_only = dir.join("read-only.json");
    std::fs::write(&read_only, "keep").unwrap();
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o444)).unwrap();
    let e = fails_with_2(&["generate", &m, "--out", s(&read_only), "--quiet"]);
    assert!(e.contains("read-only"), "{e}");
    assert_eq!(std::fs::read_to_string(&read_only).unwrap(), "keep");

    // A device: a private node equal to /dev/null (only root may make one), never /dev/null
    // itself, so a regression cannot damage the machine.
    let null = dir.join("null");
    if Command::new("mknod")
        .args([s(&null), "c", "1", "3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|st| st.success())
    {
        assert!(generate(&null).status.success());
        let meta = std::fs::symlink_metadata(&null).unwrap();
        assert!(meta.file_type().is_char_device());
        assert_eq!(meta.rdev(), std::fs::metadata("/dev/null").unwrap().rdev());
        std::fs::remove_file(&null).unwrap();
    }

    // Standard output named by a path (a pipe here): the suite arrives on it.
    let o = generate(Path::new("/proc/self/fd/1"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(o.stdout, suite);

    let mut left = visible(&dir);
    left.retain(|n| n.ends_with(".tmp"));
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Entries of `dir` (recursively) named like the temporary files and directories of
/// `src/output.rs` (`.NAME.PID-SEQ-NANOS.tmp`).
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with('.') && name.ends_with(".tmp") {
            found.push(path.clone());
        }
        if path.is_dir() && !path.is_symlink() {
            found.extend(temporaries(&path));
        }
    }
    found
}

/// `generate` and `render` stopped by SIGTERM or SIGINT at seeded moments of their run leave
/// no temporary file or directory (issue 25).
#[cfg(unix)]
#[test]
fn interrupted_generate_and_render_leave_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt as _;
    let dir = scratch("interrupt");
    let m = model(&dir);
    let suite = dir.join("big.json");
    let generate = [
        "generate",
        &m,
        "--method",
        "w",
        "--extra-states",
        "3",
        "--quiet",
        "--out",
    ];
    // The rendered suite is smaller: rendering writes many files and takes longer per test.
    ok(&[
        "generate",
        &m,
        "--method",
        "w",
        "--extra-states",
        "2",
        "--quiet",
        "--out",
        s(&suite),
    ]);
    let render_out = dir.join("ttcn");
    let render = ["render", s(&suite), "--format", "ttcn", "--quiet", "--out"];
    let mut rng: u64 = 0x2545_f491_4f6c_dd1d;
    let mut interrupted = 0;
    for (command, out) in [
        (&generate[..], dir.join("out.json")),
        (&render[..], render_out.clone()),
    ] {
        let started = std::time::Instant::now();
        ok(&[command, &[s(&out)]].concat());
        let full_time = started.elapsed();
        for k in 0..4 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let delay = full_time.mul_f64((rng % 1000) as f64 / 1000.0);
            let signal = [libc::SIGTERM, libc::SIGINT][k % 2];
            let mut child = bin()
                .args(command)
                .arg(&out)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(delay);
            // SAFETY: kill(2) of the child just spawned (not yet waited for, so its pid is ours).
            unsafe { libc::kill(child.id() as libc::pid_t, signal) };
            let status = child.wait().unwrap();
            if status.signal() == Some(signal) {
                interrupted += 1;
            } else {
                assert!(status.success(), "{command:?} after {delay:?}: {status}");
            }
            let left = temporaries(&dir);
            assert!(
                left.is_empty(),
                "{command:?} stopped after {delay:?}: {left:?}"
            );
        }
    }
    assert!(interrupted >= 2, "only {interrupted} runs were interrupted");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_side_file_read_with_the_model_is_never_an_output() {
    let dir = scratch("side-inputs");
    let m = dir.join("vending.aut");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("models/vending.aut"),
        &m,
    )
    .unwrap();
    let m = s(&m).to_owned();
    let side = format!("{m}.timeouts");
    std::fs::write(&side, "quiescence 0 300\n").unwrap();
    let suite = dir.join("suite.json");
    ok(&[
        "generate",
        &m,
        "--extra-states",
        "0",
        "--out",
        s(&suite),
        "--quiet",
    ]);
    let refused = |args: &[&str]| {
        let e = fails_with_2(args);
        assert!(
            e.contains("timeouts side file read with the input"),
            "{args:?}: {e}"
        );
    };
    refused(&["generate", &m, "--extra-states", "0", "--out", &side]);
    refused(&["convert", &m, "--to", "aut", "--out", &side]);
    refused(&["convert", &m, "--to", "dot", "--out", &side]);
    refused(&["distinguish", &m, "--dot", &side]);
    refused(&["audit", &m, "--plot", &side]);
    refused(&[
        "run",
        s(&suite),
        "--model",
        &m,
        "--spec",
        &m,
        "--junit",
        &side,
    ]);
    refused(&["run", s(&suite), "--model", &m, "--json", &side]);
    refused(&["explore", &m, "--model", &m, "--html", &side]);
    #[cfg(unix)]
    {
        // Another name of the side file: a hard link and a symbolic link.
        let hard = dir.join("hard.txt");
        std::fs::hard_link(&side, &hard).unwrap();
        refused(&["generate", &m, "--extra-states", "0", "--out", s(&hard)]);
        let soft = dir.join("soft.txt");
        std::os::unix::fs::symlink(&side, &soft).unwrap();
        refused(&["generate", &m, "--extra-states", "0", "--out", s(&soft)]);
        // `convert --to aut --out OUT` also writes OUT.timeouts: here the input model itself.
        let out = dir.join("conv.aut");
        std::fs::hard_link(&m, dir.join("conv.aut.timeouts")).unwrap();
        let e = fails_with_2(&["convert", &m, "--to", "aut", "--out", s(&out)]);
        assert!(e.contains("is the input file"), "{e}");
        assert!(!out.exists());
    }
    assert_eq!(
        std::fs::read_to_string(&side).unwrap(),
        "quiescence 0 300\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
