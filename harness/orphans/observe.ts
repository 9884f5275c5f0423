/**
 * The observer parts the orphans commands use, in one place, the /proc reader's among them
 * (harness/observe/proc.ts): when an export moves, only this file changes.
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
export { readCwd } from '../observe/proc.js';
