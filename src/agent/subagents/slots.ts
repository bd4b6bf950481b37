// At most `size` pieces of work at once (the Agent calls of one answer, aside.agents.maxConcurrent);
// the rest wait in the order they were given.
export class Slots {
	private running = 0;
	private readonly queue: (() => void)[] = [];

	constructor(private readonly size: number) {}

	/** Runs `work` once a slot is free; the slot is freed when it settles. */
	async run<T>(work: () => Promise<T>): Promise<T> {
		if (this.running >= this.size) {
			await new Promise<void>((resolve) => {
				this.queue.push(resolve);
			});
		} else {
			this.running++;
		}
		try {
			return await work();
		} finally {
			const next = this.queue.shift();
			if (next) {
				// The slot passes straight to the next in line.
				next();
			} else {
				this.running--;
			}
		}
	}
}
