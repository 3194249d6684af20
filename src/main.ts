import { main } from './serve.js';

/** `npm start`: the service (the same as `dealer-reviews serve`). */
const code = await main(process.argv.slice(2));
if (code !== null) process.exit(code);
