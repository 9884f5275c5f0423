//! The measuring process: it starts the client role in a process group of its own, waits for the
//! behaviour's point, then kills the client (SIGKILL) or tells it to close, and watches the
//! server. It is a child subreaper (main.rs), so when the client dies the server is re-parented
//! to it: it reaps the server and times its exit from the kill.
use crate::behaviour::{Point, behaviour_of, script_of};
use crate::group;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// One measurement: a server, a client variant, an end.
pub struct Measured {
    pub server: String,
    pub client: String,
    pub exit: String,
    pub survivors: Vec<String>,
}

/// Where the server's stderr goes (client.rs says why it matters).
pub const VARIANTS: [&str; 2] = ["inherit", "pipe"];

fn variant_name(stderr: &str) -> &'static str {
    if stderr == "pipe" { "rmcp, stderr piped into the client" } else { "rmcp" }
}

const POINT_TIMEOUT: Duration = Duration::from_secs(20);

/// Every behaviour binary of the folders, with each variant, both ends, `parallel` at a time.
pub fn measure_all(folders: &[String], window: Duration, parallel: usize) -> Vec<Measured> {
    let mut jobs = Vec::new();
    for dir in folders {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| crate::client::fail(&format!("{dir}: {e}")))
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| script_of(name).is_some())
            .collect();
        names.sort();
        for name in names {
            for stderr in VARIANTS {
                for end in ["kill", "close"] {
                    jobs.push((format!("{dir}/{name}"), stderr, end));
                }
            }
        }
    }
    let count = jobs.len();
    let queue = Arc::new(Mutex::new(jobs.into_iter().enumerate()));
    let results = Arc::new(Mutex::new((0..count).map(|_| None).collect::<Vec<Option<Measured>>>()));
    let workers: Vec<_> = (0..parallel.max(1))
        .map(|_| {
            let (queue, results) = (queue.clone(), results.clone());
            std::thread::spawn(move || {
                loop {
                    let next = queue.lock().unwrap().next();
                    let Some((i, (binary, stderr, end))) = next else { break };
                    let measured = measure(&binary, stderr, end, window);
                    results.lock().unwrap()[i] = Some(measured);
                }
            })
        })
        .collect();
    for worker in workers {
        let _ = worker.join();
    }
    let results = std::mem::take(&mut *results.lock().unwrap());
    results.into_iter().flatten().collect()
}

enum Event {
    Out(String),
    Err(String),
}

pub fn measure(binary: &str, stderr: &str, end: &str, window: Duration) -> Measured {
    let folder = binary.rsplitn(2, '/').nth(1).unwrap_or("").rsplit('/').next().unwrap_or("");
    let mut r = Measured { server: format!("{folder}/{}", behaviour_of(binary)), client: variant_name(stderr).into(), exit: String::new(), survivors: vec![] };
    let script = script_of(behaviour_of(binary)).expect("a script");
    let me = std::env::current_exe().expect("own path");
    let spawned = Command::new(me)
        .args(["client", end, stderr, binary])
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut client = match spawned {
        Ok(c) => c,
        Err(e) => {
            r.exit = format!("client did not start: {e}");
            return r;
        }
    };
    let group = client.id() as i32;
    let (tx, rx) = mpsc::channel();
    let (out, err) = (client.stdout.take().unwrap(), client.stderr.take().unwrap());
    let tx_err = tx.clone();
    std::thread::spawn(move || BufReader::new(out).lines().map_while(Result::ok).for_each(|l| drop(tx.send(Event::Out(l)))));
    std::thread::spawn(move || BufReader::new(err).lines().map_while(Result::ok).for_each(|l| drop(tx_err.send(Event::Err(l)))));
    let mut server = 0;
    let mut reached = false;
    let mut stderr_lines: Vec<String> = Vec::new();
    let deadline = Instant::now() + POINT_TIMEOUT;
    while !(reached && server != 0) {
        let Ok(event) = rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) else { break };
        match event {
            Event::Out(line) if line.starts_with("server ") => server = line["server ".len()..].parse().unwrap_or(0),
            Event::Out(line) if line == "ready" => reached = true,
            Event::Out(_) => {}
            Event::Err(line) => {
                if let Point::Started(marker) = script.point {
                    reached |= line.contains(marker);
                }
                stderr_lines.push(line);
            }
        }
    }
    if !(reached && server != 0) {
        group::end_group(group);
        let _ = client.wait();
        r.exit = format!("the client never reached the point: {}", stderr_lines.last().cloned().unwrap_or_default());
        return r;
    }
    if end == "kill" {
        let lost = Instant::now();
        let _ = client.kill();
        let _ = client.wait();
        // The client is dead and reaped: the server is re-parented to this subreaper.
        r.exit = await_exit(server, lost, window);
    } else {
        let _ = client.stdin.as_mut().map(|s| writeln!(s, "close"));
        let mut closed = None;
        for event in rx.iter() {
            match event {
                Event::Out(line) if line.starts_with("closed ") => closed = Some(line["closed ".len()..].to_string()),
                Event::Out(_) => {}
                Event::Err(line) => stderr_lines.push(line),
            }
        }
        let _ = client.wait();
        r.exit = match closed {
            Some(rest) => close_outcome(&rest, &stderr_lines),
            None => format!("the client died: {}", stderr_lines.last().cloned().unwrap_or_default()),
        };
    }
    r.survivors = group::survivors(group);
    group::end_group(group);
    r
}

/// "cancel() returned after <ms> ms", and how the server ended, as rmcp's own log says it
/// (child_process.rs `wait_for_exit`: "Child exited gracefully <status>"); without that line the
/// transport killed it (SIGKILL), which it does not log.
fn close_outcome(rest: &str, stderr_lines: &[String]) -> String {
    let ms = rest.split(' ').next().unwrap_or("?");
    let how = stderr_lines
        .iter()
        .find_map(|l| l.split_once("Child exited gracefully ").map(|(_, s)| s.trim().to_string()))
        .unwrap_or_else(|| "killed by the transport (SIGKILL)".into());
    format!("cancel() returned after {ms} ms: {how}")
}

/// Reaps the server, or says it still ran when the window closed (end_group then ends it).
fn await_exit(pid: i32, lost: Instant, window: Duration) -> String {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut status = 0;
        let reaped = unsafe { libc::waitpid(pid, &mut status, 0) };
        let ms = lost.elapsed().as_millis();
        let _ = tx.send(if reaped != pid {
            format!("not reaped: {}", std::io::Error::last_os_error())
        } else if libc::WIFSIGNALED(status) {
            format!("{} after {ms} ms", signal_name(libc::WTERMSIG(status)))
        } else {
            format!("exit {} after {ms} ms", libc::WEXITSTATUS(status))
        });
    });
    rx.recv_timeout(window).unwrap_or_else(|_| format!("still running {} ms after the loss", window.as_millis()))
}

fn signal_name(signal: i32) -> String {
    match signal {
        libc::SIGPIPE => "SIGPIPE".into(),
        libc::SIGTERM => "SIGTERM".into(),
        libc::SIGKILL => "SIGKILL".into(),
        other => format!("signal {other}"),
    }
}
