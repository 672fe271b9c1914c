// pg's parts imported directly by pg-driver.ts (see there why); their types are @types/pg's.
declare module 'pg/lib/client.js' {
  const Client: unknown;
  export default Client;
}
declare module 'pg-pool' {
  const Pool: unknown;
  export default Pool;
}
