/**
 * launcher-forwards-nothing: an npm launcher that starts the real server (FAKE_LAUNCH, default
 * ignores-eof) with stdio inherited and forwards no signal, as @falconer/mcp 0.2.1 does. A
 * client that signals only its direct child ends the launcher and leaves the real server
 * running, re-parented, still holding the client's pipes (check `no-survivors`).
 */
import { launchInherited } from './lib/launch.js';

launchInherited('launcher-forwards-nothing', []);
