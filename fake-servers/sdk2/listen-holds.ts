/**
 * sdk2-listen-holds: a 2026-07-28-only SDK 2 server with a watcher that announces a tool-list
 * change every 200 ms into any open subscriptions/listen stream (the client opens one with a
 * `listen` setup step). SDK 2's transport closes on EOF, but the server does nothing on that:
 * the watcher's interval keeps the event loop alive and it never exits (exit-on-eof fails).
 */
import { runSdk2Server } from './lib/base.js';

runSdk2Server({ name: 'sdk2-listen-holds', legacy: 'reject', exitOnClose: false, onCancel: 'stop', announceEveryMs: 200 });
