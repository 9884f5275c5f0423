//! A behaviour's script for the measuring client: the tool to call, its arguments, and how the
//! measurer knows the server is at the point: the call was answered (idle after a call), the
//! server's stderr shows its handler started, or the server asked the client for sampling. The
//! fakes' own files say what each does (src/bin/<behaviour>.rs).

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Point {
    /// wait for the call's answer before the loss.
    Answered,
    /// the call stays in flight; the point is this line on the server's stderr.
    Started(&'static str),
    /// the server asks the client for sampling; the point is the client's handler being called.
    Sampling,
}

#[derive(Clone, Copy, Debug)]
pub struct Script {
    pub tool: &'static str,
    pub args: &'static str,
    pub point: Point,
}

const ECHO: Script = Script { tool: "echo", args: r#"{"text":"hi"}"#, point: Point::Answered };
const SLOW: Script = Script { tool: "slow", args: r#"{"ms":30000}"#, point: Point::Started("slow: working") };

pub fn script_of(behaviour: &str) -> Option<Script> {
    Some(match behaviour {
        "well-behaved" | "task-keeps-alive" | "writes-after-eof" | "prints-after-eof" => ECHO,
        "leaks-child" => Script { tool: "spawn-helper", args: "{}", point: Point::Answered },
        "slow-tool" | "ignores-cancel" => SLOW,
        "awaits-sampling" => Script { tool: "ask", args: "{}", point: Point::Sampling },
        _ => return None,
    })
}

/// The behaviour a binary shows: its file name.
pub fn behaviour_of(binary: &str) -> &str {
    binary.rsplit('/').next().unwrap_or(binary)
}
