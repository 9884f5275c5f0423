//! The client role: a session on the server with rmcp's own client (`TokioChildProcess`, the
//! README's `().serve(TokioChildProcess::new(cmd)?)`), brought to the behaviour's point. It tells
//! the measuring process over stdout: "server <pid>", "ready" (the call was answered, or the
//! server's sampling request reached this client's handler). For "close" it then waits for a
//! "close" line on stdin, closes the session the SDK's way (`RunningService::cancel`, whose end
//! closes the transport: crates/rmcp/src/transport/child_process.rs `graceful_shutdown`, stdin
//! closed, 3 s, SIGTERM, 3 s, SIGKILL) and says "closed <ms>". For "kill" it is killed.
//!
//! Where the server's stderr goes: "inherit" is rmcp's default (`TokioChildProcessBuilder::new`:
//! `Stdio::inherit()`), this client's own stderr, which the measuring process holds; "pipe" is
//! `.stderr(Stdio::piped())`, read by this client, so it breaks when the client dies.
#![allow(deprecated)] // sampling, deprecated since rmcp 1.8.0 (SEP-2577), still answered in 2025-11-25
use crate::behaviour::{Point, Script};
use rmcp::{
    ClientHandler, RoleClient, ServiceExt,
    model::{CallToolRequestParams, ClientCapabilities, ClientConfig, CreateMessageRequestParams, CreateMessageResult, ErrorData},
    service::RequestContext,
    transport::TokioChildProcess,
};
use std::{process::Stdio, time::Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// A host with sampling: its handler tells the measurer it was asked, then waits, as a host
/// waiting on its model would, until its request's token ends the wait.
struct Host;

impl ClientHandler for Host {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.sampling = Some(Default::default());
        ClientConfig::new(capabilities, rmcp::model::Implementation::new("groundtruth", "1.0.0"))
    }

    async fn create_message(&self, _params: CreateMessageRequestParams, context: RequestContext<RoleClient>) -> Result<CreateMessageResult, ErrorData> {
        say("ready");
        context.ct.cancelled().await;
        Err(ErrorData::internal_error("the host declined: shutting down", None))
    }
}

fn say(line: &str) {
    println!("{line}");
}

pub async fn run_client(end: &str, stderr: &str, binary: &str, script: Script) {
    let builder = TokioChildProcess::builder(tokio::process::Command::new(binary));
    let builder = if stderr == "pipe" { builder.stderr(Stdio::piped()) } else { builder };
    let (transport, server_stderr) = builder.spawn().unwrap_or_else(|e| fail(&format!("spawn {binary}: {e}")));
    if let Some(server_stderr) = server_stderr {
        // Copied to this client's stderr, where the measurer watches for the handler's line.
        tokio::spawn(async move {
            let mut lines = BufReader::new(server_stderr).lines();
            let mut out = tokio::io::stderr();
            while let Ok(Some(line)) = lines.next_line().await {
                let _ = out.write_all(format!("{line}\n").as_bytes()).await;
            }
        });
    }
    let pid = transport.id().unwrap_or(0);
    let client = Host.serve(transport).await.unwrap_or_else(|e| fail(&format!("connect: {e}")));
    say(&format!("server {pid}"));
    let params = CallToolRequestParams::new(script.tool).with_arguments(serde_json::from_str(script.args).expect("script args"));
    if script.point == Point::Answered {
        if let Err(e) = client.call_tool(params).await {
            fail(&format!("call {}: {e}", script.tool));
        }
        say("ready");
    } else {
        let peer = client.peer().clone();
        tokio::spawn(async move {
            let _ = peer.call_tool(params).await;
        });
    }
    if end == "kill" {
        std::future::pending::<()>().await; // the measuring process kills this client
    }
    let mut stdin = BufReader::new(tokio::io::stdin()).lines();
    while let Ok(Some(line)) = stdin.next_line().await {
        if line == "close" {
            break;
        }
    }
    let start = Instant::now();
    let quit = client.cancel().await;
    say(&format!("closed {} {:?}", start.elapsed().as_millis(), quit.map(|q| format!("{q:?}"))));
}

pub fn fail(message: &str) -> ! {
    eprintln!("groundtruth: {message}");
    std::process::exit(2);
}
