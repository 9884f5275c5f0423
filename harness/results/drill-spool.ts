/** A run's drill results on disk, one JSON line a drill, read back when a reporter asks: memory holds two numbers a drill, not its result. */
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DrillList, DrillResult } from './types.js';

export class DrillSpool implements DrillList {
  private readonly fd: number;
  /** By plan position: where its latest line starts, and its length in bytes (without the newline). */
  private readonly starts: number[] = [];
  private readonly lengths: number[] = [];
  /** One buffer for every read, grown to the longest line. */
  private buffer = Buffer.alloc(64 * 1024);
  private end = 0;
  private order: number[] | null = null;

  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.fd = openSync(file, 'w+');
  }

  /** Writes the result of the drill at this plan position (again: the latest write counts). */
  put(position: number, drill: DrillResult): void {
    const line = Buffer.from(`${JSON.stringify(drill)}\n`);
    writeSync(this.fd, line, 0, line.length, this.end);
    if (this.starts[position] === undefined) this.order = null;
    this.starts[position] = this.end;
    this.lengths[position] = line.length - 1;
    this.end += line.length;
  }

  /** Replaces the drill at this index of the list (a baseline update re-marks each drill). */
  set(index: number, drill: DrillResult): void {
    const position = this.positions()[index];
    if (position === undefined) throw new RangeError(`no drill at index ${index} of ${this.length}`);
    this.put(position, drill);
  }

  get length(): number {
    return this.positions().length;
  }

  at(index: number): DrillResult | undefined {
    const position = this.positions()[index < 0 ? this.length + index : index];
    if (position === undefined) return undefined;
    const start = this.starts[position];
    const length = this.lengths[position];
    if (this.buffer.length < length) this.buffer = Buffer.alloc(Math.max(length, this.buffer.length * 2));
    const buffer = this.buffer;
    let read = 0;
    while (read < length) {
      const n = readSync(this.fd, buffer, read, length - read, start + read);
      if (n === 0) throw new Error(`${this.file}: ended at byte ${start + read}, expected ${start + length}`);
      read += n;
    }
    return JSON.parse(buffer.toString('utf8', 0, length)) as DrillResult;
  }

  *[Symbol.iterator](): Iterator<DrillResult> {
    for (let i = 0; i < this.length; i++) yield this.at(i)!;
  }

  close(): void {
    closeSync(this.fd);
    rmSync(this.file, { force: true });
  }

  private positions(): number[] {
    if (this.order) return this.order;
    const order: number[] = [];
    this.starts.forEach((_, position) => {
      order.push(position);
    });
    this.order = order;
    return order;
  }
}

/** Replaces the drill at this index, in an array or a spool. */
export function replaceDrill(drills: DrillList, index: number, drill: DrillResult): void {
  if (Array.isArray(drills)) drills[index] = drill;
  else if (drills instanceof DrillSpool) drills.set(index, drill);
  else throw new TypeError('replaceDrill: expected an array or a DrillSpool');
}
