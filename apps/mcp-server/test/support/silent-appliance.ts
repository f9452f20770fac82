// An appliance that never answers: a loopback TCP server that accepts every connection and never replies (a hung
// pfSense, a black-holed link). It tells when a connection arrived, and can cut them all (as a reset).
import { createServer, type Socket } from 'node:net';

export interface SilentAppliance {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** Resolves when the first connection was accepted. */
  readonly connected: Promise<void>;
  /** Destroys every accepted connection (the client sees a reset). */
  cut(): void;
  close(): Promise<void>;
}

export async function startSilentAppliance(): Promise<SilentAppliance> {
  const sockets = new Set<Socket>();
  let markConnected!: () => void;
  const connected = new Promise<void>((resolve) => (markConnected = resolve));
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
    markConnected();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('silent appliance: no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    connected,
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
