import { measurePublishing } from './publish-bench';
const size = Number(process.argv[2] ?? 100000);
const f = await measurePublishing(size, Number(process.argv[3] ?? 5), Number(process.argv[4] ?? 5000));
console.log(JSON.stringify(f));
