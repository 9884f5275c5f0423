//! The client's process group: its live members (survivors), and its end. None of the fakes
//! leaves its group, so the group is the client, the server and their children.
use std::fs;

/// pids of the group's live members (zombies are dead: state Z).
pub fn members(group: i32) -> Vec<i32> {
    let mut pids = Vec::new();
    let Ok(entries) = fs::read_dir("/proc") else { return pids };
    for entry in entries.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else { continue };
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        // After "(comm)": state, ppid, pgrp.
        let Some(close) = stat.rfind(')') else { continue };
        let fields: Vec<&str> = stat[close + 1..].split_whitespace().collect();
        if fields.len() > 2 && fields[2] == group.to_string() && fields[0] != "Z" {
            pids.push(pid);
        }
    }
    pids
}

/// The group's live members as "name args", sorted.
pub fn survivors(group: i32) -> Vec<String> {
    let mut out: Vec<String> = members(group)
        .into_iter()
        .filter_map(|pid| fs::read(format!("/proc/{pid}/cmdline")).ok())
        .map(|raw| {
            let words: Vec<String> = raw.split(|b| *b == 0).filter(|w| !w.is_empty()).map(|w| String::from_utf8_lossy(w).into_owned()).collect();
            let mut words = words.into_iter();
            let program = words.next().unwrap_or_default();
            let name = program.rsplit('/').next().unwrap_or(&program).to_string();
            std::iter::once(name).chain(words).collect::<Vec<_>>().join(" ")
        })
        .collect();
    out.sort();
    out
}

/// Kills what is left of the group (this measurement's own) and reaps those re-parented here.
pub fn end_group(group: i32) {
    let left = members(group);
    if left.is_empty() {
        return;
    }
    unsafe { libc::kill(-group, libc::SIGKILL) };
    for pid in left {
        let mut status = 0;
        unsafe { libc::waitpid(pid, &mut status, 0) };
    }
}
