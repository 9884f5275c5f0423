/**
 * Parses `lsof -nP -F pfatidnPT` (lsof(8) "OUTPUT FOR OTHER PROGRAMS"), naming objects as /proc
 * does (`pipe:[inode]`, `socket:[inode]`). On Linux an IP socket's inode is in the device field;
 * with +E a unix peer is `->INO=N` (macOS: `->0xADDR`, also its device field).
 */
import type { Access, Descriptor, DescriptorKind } from './types.js';

export type LsofFile = Descriptor & { pid: number };

function accessOf(a: string | undefined): Access {
  if (a === undefined) return null;
  if (a.startsWith('u')) return 'rw';
  if (a.startsWith('w')) return 'w';
  if (a.startsWith('r')) return 'r';
  return null;
}

function pathKind(name: string): DescriptorKind {
  if (name === '/dev/null') return 'null';
  if (/^\/dev\/(pts\/\d+|tty\w*|console)$/.test(name)) return 'tty';
  return name.startsWith('/') ? 'file' : 'other';
}

function splitTcp(name: string): { local: string; remote: string } {
  const [local = name, remote = '*'] = name.split('->');
  return { local, remote };
}

function toDescriptor(pid: number, f: Record<string, string>): LsofFile | null {
  const fd = Number(f.f);
  if (!/^\d+$/.test(f.f ?? '')) return null; // cwd, txt, mem...
  const type = f.t ?? '';
  const name = f.n ?? '';
  const base = { pid, fd, access: accessOf(f.a), protocol: null, tcp: null, path: null, peer: null };
  if (type === 'FIFO' && name.startsWith('pipe')) return { ...base, kind: 'pipe', object: `pipe:[${f.i ?? f.d}]` };
  if (type === 'PIPE') {
    // macOS: a pipe end is its own kernel object; the pair is named by the lower address.
    const other = /->(0x[0-9a-f]+)/i.exec(name)?.[1];
    const ends = [f.d ?? '', other ?? ''].filter(Boolean).sort();
    return { ...base, kind: 'pipe', object: `pipe:[${ends[0] ?? '?'}]` };
  }
  if (type === 'unix') {
    const self = f.i ?? f.d ?? '?';
    const ino = /->INO=(\d+)/.exec(name)?.[1];
    const addr = /->(0x[0-9a-f]+)/i.exec(name)?.[1];
    const path = name.startsWith('/') ? name.split(' ')[0]! : null;
    return {
      ...base,
      access: 'rw',
      kind: 'socket',
      protocol: 'unix',
      object: `socket:[${self}]`,
      path,
      peer: ino ? `socket:[${ino}]` : addr ? `socket:[${addr}]` : null,
    };
  }
  if (type === 'IPv4' || type === 'IPv6') {
    const protocol = (f.P ?? '').toLowerCase();
    const tcp = protocol === 'tcp' ? { ...splitTcp(name), state: f.TST ?? '' } : null;
    return {
      ...base,
      access: 'rw',
      kind: 'socket',
      protocol: protocol === 'tcp' && type === 'IPv6' ? 'tcp6' : protocol || null,
      object: `socket:[${f.d ?? f.i}]`,
      tcp,
    };
  }
  // lsof adds details /proc does not show (`[eventpoll:10,12]`, `[eventfd:55]`): name it as /proc does.
  if (type === 'a_inode') return { ...base, kind: 'other', object: `anon_inode:${name.replace(/^\[([^:\]]+).*$/, '[$1]')}` };
  if (type === 'sock') return { ...base, access: 'rw', kind: 'socket', object: `socket:[${f.i ?? f.d}]` };
  return { ...base, kind: pathKind(name), object: name };
}

export function parseLsof(text: string): LsofFile[] {
  const out: LsofFile[] = [];
  let pid = 0;
  let file: Record<string, string> | null = null;
  const flush = () => {
    if (file) {
      const d = toDescriptor(pid, file);
      if (d) out.push(d);
    }
    file = null;
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const tag = line[0]!;
    const value = line.slice(1);
    if (tag === 'p') {
      flush();
      pid = Number(value);
    } else if (tag === 'f') {
      flush();
      file = { f: value };
    } else if (file) {
      if (tag === 'T') {
        const eq = value.indexOf('=');
        file[`T${value.slice(0, eq)}`] = value.slice(eq + 1);
      } else file[tag] = value;
    }
  }
  flush();
  return out;
}
