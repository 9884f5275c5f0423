/**
 * sdk2-modern-only: like sdk2-dual-era, but 2026-07-28 only (`legacy: 'reject'`): initialize is
 * answered with UnsupportedProtocolVersion -32022. Drilled with protocol auto (or pinned
 * 2026-07-28) it passes every check; pinned to 2025-11-25 it cannot be drilled at all.
 */
import { runSdk2Server } from './lib/base.js';

runSdk2Server({ name: 'sdk2-modern-only', legacy: 'reject', exitOnClose: true, onCancel: 'stop' });
