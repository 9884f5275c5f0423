/** The observer's public API: /proc reading, identity, cgroups, tracking, inventory (it reads and tracks; harness/containment/ ends). */
export {
  listPids,
  readCmdline,
  readEnviron,
  readEnvironValues,
  readStat,
  parseStat,
  startTimeToMono,
  clockTicksPerSecond,
  isKernelThread,
  listFds,
  readFdLink,
  readFdLinkOrThrow,
  fdLinkMode,
  readOwnerUid,
  procAvailable,
  type ProcStat,
} from './proc.js';
export { identify, isAlive, procState, sameIdentity, identityKey, type ProcIdentity, type ProcState } from './identity.js';
export { decodeWaitStatus, type ExitStatus } from './exit-status.js';
export { cgroupSupport, createDrillCgroup, listDrillCgroups, findCgroup2Mount, DrillCgroup, type CgroupSupport } from './cgroup.js';
export type { TrackedProcess } from './membership.js';
export { pollExit, checkExit, type ExitObservation, type PollExitOptions } from './exit-watch.js';
export { DrillTracker, type DrillTrackerOptions, type TrackingInfo, type UnattributedProcess } from './tracker.js';
export { inventory, classifyFd, type SurvivorRow, type FdInfo, type FdKind } from './inventory.js';
export { tcpConnections, unixSockets, socketInodes, type TcpConn, type UnixSock } from './net.js';
export { newRunId, drillIdFor, runIdOf, DRILL_ENV, SUITE_ENV, suiteEnv } from './run-ids.js';
export { ObserveError, type ObserveErrorCode } from './errors.js';
export { findRealServer, findRealServerNow, isLauncher, snapshotChain, type ChainProcess, type ReadFd } from './wrapper.js';
export { type IoCounters, fdLinkedTo, readCwd, readFdLinks, readFdLinksAsync, readIo, readStatOnce, readSysctl, scanNetTable } from './proc.js';
export { type ProcessFacts, processFacts } from './process-facts.js';
export { type RuntimeFacts, runtimeFacts } from './runtime-facts.js';
export { parseTcpLine } from './net.js';
