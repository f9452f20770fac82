// Test-only preload (NODE_OPTIONS=--import): records the host of every outgoing TCP connection of this
// process (and of every child that inherits NODE_OPTIONS) to the file named by LAB_TEST_CONNECT_LOG.
import { appendFileSync } from 'node:fs';
import net from 'node:net';

const log = process.env.LAB_TEST_CONNECT_LOG;
const original = net.Socket.prototype.connect;
net.Socket.prototype.connect = function connect(...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options =
    typeof first === 'object' && first !== null ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined };
  const where = options.path != null ? `ipc:${options.path}` : `${options.host ?? 'localhost'}`;
  if (log) appendFileSync(log, `${where}\n`);
  return original.apply(this, args);
};
