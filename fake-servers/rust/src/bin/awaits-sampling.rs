//! rmcp awaits-sampling: `ask` sends the client a `sampling/createMessage` request and waits for
//! its answer. At stdin EOF the answer can no longer come, but nothing tells the handler: rmcp's
//! loop ends, its drain waits up to 5 s for the handler's response (crates/rmcp/src/service.rs
//! `serve_inner`), and only when the loop's task ends are the pending requests' responders
//! dropped, so `create_message` returns `TransportClosed`. The server outlives its input by 5 s.
//! In the 2026-07-28 era rmcp refuses to send the request at all (service/server.rs
//! `enforce_outbound_request`).
#![allow(deprecated)] // sampling: deprecated since rmcp 1.8.0 (SEP-2577), still sent in 2025-11-25
use rmcp::{
    ErrorData, Peer, RoleServer,
    model::{CallToolResult, CreateMessageRequestParams, SamplingMessage},
    tool, tool_handler, tool_router,
};
use rmcp_fakes::{init_logs, internal, run, text};

#[derive(Clone)]
struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Asks the client's model, and waits for the answer.")]
    async fn ask(&self, peer: Peer<RoleServer>) -> Result<CallToolResult, ErrorData> {
        tracing::info!("ask: asking the client for sampling");
        let answer = peer.create_message(CreateMessageRequestParams::new(vec![SamplingMessage::user_text("say hi")], 16)).await;
        match answer {
            Ok(result) => Ok(text(format!("the model answered: {}", result.model))),
            Err(error) => {
                tracing::info!(%error, "ask: sampling failed");
                Err(internal(error))
            }
        }
    }
}

#[tool_handler(name = "rmcp-awaits-sampling", version = "1.0.0")]
impl rmcp::ServerHandler for Server {}

#[tokio::main]
async fn main() {
    init_logs();
    run(Server).await;
}
