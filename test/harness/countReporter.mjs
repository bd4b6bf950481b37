// A node:test reporter that writes `{ passed, failed, skipped, failures }` as JSON, so the
// tier runner can sum every tier into the one closing line CI reads. Suites are not counted.
export default async function* countReporter(source) {
	const counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
	for await (const event of source) {
		const { type, data } = event;
		if ((type !== 'test:pass' && type !== 'test:fail') || data.details?.type === 'suite') {
			continue;
		}
		if (type === 'test:pass') {
			if (data.skip || data.todo) {
				counts.skipped++;
			} else {
				counts.passed++;
			}
		} else {
			counts.failed++;
			counts.failures.push(`${data.file ?? ''} › ${data.name}`);
		}
	}
	yield `${JSON.stringify(counts)}\n`;
}
