//! rmcp prints-after-eof: when `waiting()` returns it prints one last JSON-RPC message to stdout
//! with `println!`. After a close the client still reads: the print succeeds, exit 0. After a
//! crash the write fails with EPIPE (Rust ignores SIGPIPE, so no signal comes), and `println!`
//! panics on a failed write (library/std/src/io/stdio.rs `print_to`: "failed printing to
//! stdout"): the main thread panics and the process exits 101. Its own end all the same:
//! exit-on-eof passes, and the exit is classed a crash, with the panic line.
use rmcp::{handler::server::wrapper::Parameters, model::CallToolResult, tool, tool_handler, tool_router};
use rmcp_fakes::{init_logs, run, text};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct EchoIn {
    /// the text to answer with
    text: String,
}

#[derive(Clone)]
struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Answers with the text it was given.")]
    async fn echo(&self, Parameters(EchoIn { text: t }): Parameters<EchoIn>) -> CallToolResult {
        text(t)
    }
}

#[tool_handler(name = "rmcp-prints-after-eof", version = "1.0.0")]
impl rmcp::ServerHandler for Server {}

#[tokio::main]
async fn main() {
    init_logs();
    run(Server).await;
    println!(r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","data":"server stopped"}}}}"#);
}
