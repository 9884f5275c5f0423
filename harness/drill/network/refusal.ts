/**
 * Why the kernel would not make a loopback-only network, from the keeper's `refused <stage>
 * <errno>` line (keeper.pl), with the settings that decide it where this kernel has them
 * (user_namespaces(7), the Debian and Ubuntu sysctls).
 */
import { readSysctl } from '../../observe/index.js';

/** The settings that can forbid a user or network namespace, as they are here. */
export function namespaceSettings(): string {
  const names = ['kernel/unprivileged_userns_clone', 'kernel/apparmor_restrict_unprivileged_userns', 'user/max_user_namespaces', 'user/max_net_namespaces'];
  return names
    .map((n) => [n, readSysctl(n)] as const)
    .filter(([, v]) => v !== null)
    .map(([n, v]) => `${n.replace('/', '.')}=${v}`)
    .join(', ');
}

export function whyRefused(line: string): string {
  const m = /^refused (\S+) (\S+)$/.exec(line);
  if (!m) return `the namespace keeper did not start (${line.trim() || 'no report'})`;
  const [, stage, errno] = m;
  const settings = namespaceSettings();
  const here = settings ? ` (here: ${settings})` : '';
  const asRoot = process.geteuid?.() === 0;
  if (stage === 'unshare') {
    const what = asRoot ? 'a network namespace (or a user namespace to own one)' : 'a user namespace with a network namespace';
    if (errno === 'EPERM' || errno === 'EACCES')
      return `the kernel refused to make ${what} (unshare: ${errno}): user namespaces are not allowed to this user, by kernel.unprivileged_userns_clone=0, by AppArmor's kernel.apparmor_restrict_unprivileged_userns=1, or by a seccomp filter such as a container runtime's${here}`;
    if (errno === 'ENOSPC' || errno === 'EUSERS')
      return `the kernel refused to make ${what} (unshare: ${errno}): the limit of user or network namespaces is reached (0 turns them off)${here}`;
    if (errno === 'EINVAL' || errno === 'ENOSYS') return `this kernel cannot make ${what} (unshare: ${errno}): built without user or network namespaces`;
    return `the kernel refused to make ${what} (unshare: ${errno})${here}`;
  }
  if (stage === 'uid_map' || stage === 'gid_map' || stage === 'setgroups')
    return `a user namespace was made, but its ${stage} could not be written (${errno}): AppArmor's kernel.apparmor_restrict_unprivileged_userns=1 gives such a namespace no capability${here}`;
  if (stage === 'lo')
    return `the namespace's loopback interface could not be brought up (${errno}): AppArmor's kernel.apparmor_restrict_unprivileged_userns=1 gives a user namespace no capability${here}`;
  return `the namespace keeper failed at ${stage} (${errno})`;
}
