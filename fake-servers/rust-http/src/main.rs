//! rust-http-writer: a fake MCP stdio server in Rust with reqwest, the oracle for the drill
//! remote's HTTPS from a Rust runtime. Raw newline-delimited JSON-RPC 2.0.
//!
//! The same three tools as fake-servers/go-http: `write` (POST $FAKE_API_URL/actions, a
//! configurable HTTPS base URL trusted through SSL_CERT_FILE), `write-hardcoded` (POST
//! https://api.example.invalid/actions, reached only through HTTPS_PROXY) and `create` (a pod
//! by name, no Idempotency-Key; 409 counts as done). FAKE_KEYLESS=1 drops the key. On stdin EOF
//! it refuses new calls, lets its requests in flight settle (1 s at most) and exits 0.
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

const NAME: &str = "rust-http-writer";
const HARDCODED_HOST: &str = "https://api.example.invalid";
const CORRELATION_KEY: &str = "dev.crash-drill/correlation-id";

struct State {
    stopping: bool,
    inflight: usize,
}

fn send(out: &Mutex<std::io::Stdout>, v: &Value) {
    let mut line = v.to_string();
    line.push('\n');
    let mut o = out.lock().unwrap();
    let _ = o.write_all(line.as_bytes());
    let _ = o.flush();
}

fn text(s: &str, is_error: bool) -> Value {
    json!({ "content": [{ "type": "text", "text": s }], "isError": is_error })
}

fn tools() -> Value {
    let op_target = json!({ "type": "object", "properties": { "op": { "type": "string" }, "target": { "type": "string" } }, "required": ["op", "target"] });
    let named = json!({ "type": "object", "properties": { "name": { "type": "string" } }, "required": ["name"] });
    json!([
        { "name": "write", "description": "POST /actions at FAKE_API_URL", "inputSchema": op_target },
        { "name": "write-hardcoded", "description": "POST /actions at the hard-coded host", "inputSchema": op_target },
        { "name": "create", "description": "create a pod by name at FAKE_API_URL", "inputSchema": named },
    ])
}

fn post(client: &reqwest::blocking::Client, url: &str, body: &Value, key: Option<&str>) -> Value {
    let token = std::env::var("FAKE_API_TOKEN").or_else(|_| std::env::var("CRASH_DRILL_TOKEN")).unwrap_or_default();
    let mut req = client.post(url).bearer_auth(token).header("content-type", "application/json").body(body.to_string());
    if let Some(k) = key {
        if std::env::var("FAKE_KEYLESS").as_deref() != Ok("1") {
            req = req.header("idempotency-key", k).header("x-correlation-id", k);
        }
    }
    match req.send() {
        Err(e) => text(&format!("write failed: {e}"), true),
        Ok(res) => {
            let status = res.status().as_u16();
            let answer = res.text().unwrap_or_default();
            if status == 409 {
                text("exists", false)
            } else if status >= 300 {
                text(&format!("write failed: HTTP {status}"), true)
            } else {
                text(&format!("done {answer}"), false)
            }
        }
    }
}

fn call(client: &reqwest::blocking::Client, params: &Value) -> Option<Value> {
    let args = &params["arguments"];
    let arg = |k: &str| args[k].as_str().unwrap_or("").to_string();
    let key = params["_meta"][CORRELATION_KEY].as_str().map(str::to_string);
    let base = std::env::var("FAKE_API_URL").unwrap_or_default();
    match params["name"].as_str()? {
        "write" if base.is_empty() => Some(text("write failed: FAKE_API_URL is not set", true)),
        "write" => Some(post(client, &format!("{base}/actions"), &json!({ "op": arg("op"), "target": arg("target") }), key.as_deref())),
        "write-hardcoded" => Some(post(client, &format!("{HARDCODED_HOST}/actions"), &json!({ "op": arg("op"), "target": arg("target") }), key.as_deref())),
        "create" if base.is_empty() => Some(text("create failed: FAKE_API_URL is not set", true)),
        "create" => {
            let pod = json!({ "apiVersion": "v1", "kind": "Pod", "metadata": { "name": arg("name") } });
            Some(post(client, &format!("{base}/api/v1/namespaces/default/pods"), &pod, None))
        }
        _ => None,
    }
}

fn main() {
    let out = Arc::new(Mutex::new(std::io::stdout()));
    let state = Arc::new((Mutex::new(State { stopping: false, inflight: 0 }), Condvar::new()));
    // One client: it reads the proxy variables and the roots (SSL_CERT_FILE) once, at build.
    let client = Arc::new(reqwest::blocking::Client::builder().timeout(Duration::from_secs(30)).build().expect("reqwest client"));
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Ok(msg) = serde_json::from_str::<Value>(&line) else { continue };
        let id = msg["id"].clone();
        let params = msg["params"].clone();
        match msg["method"].as_str().unwrap_or("") {
            "initialize" => {
                let version = params["protocolVersion"].as_str().unwrap_or("2025-06-18").to_string();
                let result = json!({ "protocolVersion": version, "capabilities": { "tools": {} }, "serverInfo": { "name": NAME, "version": "1.0.0" } });
                send(&out, &json!({ "jsonrpc": "2.0", "id": id, "result": result }));
            }
            "ping" => send(&out, &json!({ "jsonrpc": "2.0", "id": id, "result": {} })),
            "tools/list" => send(&out, &json!({ "jsonrpc": "2.0", "id": id, "result": { "tools": tools() } })),
            "tools/call" => {
                {
                    let mut s = state.0.lock().unwrap();
                    if s.stopping {
                        send(&out, &json!({ "jsonrpc": "2.0", "id": id, "result": text("server is shutting down", true) }));
                        continue;
                    }
                    s.inflight += 1;
                }
                let (out, state, client) = (out.clone(), state.clone(), client.clone());
                std::thread::spawn(move || {
                    let answer = match call(&client, &params) {
                        Some(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
                        None => json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32602, "message": "unknown tool" } }),
                    };
                    send(&out, &answer);
                    let mut s = state.0.lock().unwrap();
                    s.inflight -= 1;
                    state.1.notify_all();
                });
            }
            method => {
                if !id.is_null() {
                    let error = json!({ "code": -32601, "message": format!("method not found: {method}") });
                    send(&out, &json!({ "jsonrpc": "2.0", "id": id, "error": error }));
                }
            }
        }
    }
    // EOF: no new call, the ones in flight settle (1 s at most), then exit.
    let deadline = Instant::now() + Duration::from_secs(1);
    let mut s = state.0.lock().unwrap();
    s.stopping = true;
    while s.inflight > 0 && Instant::now() < deadline {
        s = state.1.wait_timeout(s, deadline - Instant::now()).unwrap().0;
    }
    eprintln!("[{NAME}] stdin closed: exiting");
    std::process::exit(0);
}
