/**
 * The observer parts the orphans commands use, in one place: "structure" is merging the
 * remote's /proc parser into harness/observe, and when an export moves, only this file changes.
 */
export {
  classifyFd,
  clockTicksPerSecond,
  DRILL_ENV,
  fdLinkMode,
  findRealServer,
  isKernelThread,
  isLauncher,
  listFds,
  listPids,
  pollExit,
  procAvailable,
  readCmdline,
  readEnviron,
  readEnvironValues,
  readFdLink,
  readFdLinkOrThrow,
  readOwnerUid,
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
