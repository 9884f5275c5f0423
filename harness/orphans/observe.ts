/**
 * The observer parts the orphans commands use, in one place: "structure" is merging the
 * remote's /proc parser into harness/observe, and when an export moves, only this file changes.
 */
export {
  classifyFd,
  clockTicksPerSecond,
  DRILL_ENV,
  findRealServer,
  isLauncher,
  listPids,
  pollExit,
  readCmdline,
  readEnviron,
  readStat,
  signalIdentity,
  signalIfSame,
  startTimeToMono,
  tcpConnections,
  unixSockets,
  type ChainProcess,
  type ContainmentRecord,
  type ProcIdentity,
  type SignalOutcome,
} from '../observe/index.js';
