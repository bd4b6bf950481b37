// A loopback port nothing listens on now (bound, then released): for a server a spec starts there,
// or for a connection that must be refused.
import { createServer } from 'node:net';

export function unusedPort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => {
				resolve(typeof address === 'object' && address ? address.port : 0);
			});
		});
	});
}
