package dev.crashdrill.fakes;

import java.util.List;

import io.modelcontextprotocol.spec.McpSchema.CreateMessageRequest;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.SamplingMessage;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

/**
 * java-sdk awaits-sampling: {@code ask} sends the client a request and waits for its answer:
 * sampling/createMessage when the client declared sampling, else ping. The SDK refuses to send
 * sampling to a client without that capability (McpAsyncServerExchange.createMessage: "Client
 * must be configured with sampling capabilities"), and the drill client declares none, so with it
 * the wait is on ping: the same path (McpServerSession.sendRequest: a sink in pendingResponses,
 * timed out after the server's requestTimeout, 10 s by default for McpServer.sync). At stdin EOF
 * McpServerSession.close() leaves pendingResponses alone ("TODO: clear pendingResponses and emit
 * errors?"), so the handler waits the full 10 s, and the JVM with it.
 */
public final class AwaitsSampling {

	public static void main(String[] args) {
		Fake.serve("awaits-sampling",
				Fake.handler(Fake.tool("ask", "Asks the client (its model, or a ping) and waits for the answer."),
						(exchange, request) -> {
							if (exchange.getClientCapabilities() != null
									&& exchange.getClientCapabilities().sampling() != null) {
								Fake.log("ask: waiting for sampling");
								var answer = exchange.createMessage(CreateMessageRequest
									.builder(List.of(new SamplingMessage(Role.USER, new TextContent("say hi"))), 16)
									.build());
								return Fake.text("the model answered: " + answer.model());
							}
							Fake.log("ask: waiting for ping");
							exchange.ping();
							return Fake.text("the client answered the ping");
						}));
	}

}
