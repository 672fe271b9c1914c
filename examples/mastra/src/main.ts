import { main } from './index.js';

await main();
