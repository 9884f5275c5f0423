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
  procAvailable,
  readCmdline,
  readEnviron,
  readEnvironValues,
  readFdLink,
  readFdLinkOrThrow,
  readOwnerUid,
  readStat,
  startTimeToMono,
  tcpConnections,
  unixSockets,
  type ChainProcess,
  type ProcIdentity,
} from '../observe/index.js';
export { readCwd, readIo, type IoCounters } from '../observe/index.js';
