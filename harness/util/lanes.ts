/**
 * Runs `each` over `items` with at most `lanes` at once, each lane taking the next item in order
 * when it is free; with `stop`, no lane takes another item once it returns true.
 */
export async function inLanes<T>(
  items: readonly T[],
  lanes: number,
  each: (item: T, index: number) => Promise<void>,
  stop: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length && !stop()) {
      const index = next++;
      await each(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, items.length)) }, lane));
}
