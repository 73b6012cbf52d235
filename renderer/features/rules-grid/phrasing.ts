/** A phrasing compared as a person would: width, case and end punctuation ignored. */
export function samePhrasing(a: string, b: string): boolean {
  const key = (text: string) =>
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[\s?!.。？！]+$/u, '')
      .trim();
  return key(a) === key(b);
}
