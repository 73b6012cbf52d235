/** mulberry32: a small seeded PRNG, so that a failing randomized test can be run again. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A made-up word of three syllables, drawn from `random` (rules that share no word). */
export function madeUpWord(random: () => number): string {
  const letters = 'bcdfghjklmnprstvz';
  let out = '';
  for (let i = 0; i < 3; i += 1) {
    out += letters[Math.floor(random() * letters.length)] ?? 'b';
    out += 'aeiou'[Math.floor(random() * 5)] ?? 'a';
  }
  return out;
}
