import { measurePublishing } from './publish-bench';
for (const [size, cases] of [[10000, 0], [100000, 5000]] as const) {
  const t = performance.now();
  console.log(await measurePublishing(size, 100, cases), Math.round(performance.now() - t));
}
