// A size in bytes in words ("512 bytes", "48 KB", "3.2 MB"): the same on both sides, so the host's
// messages and the webview's (an image too big to attach) name a size alike.

export function formatBytes(bytes: number): string {
	if (bytes < 1024) {
		return `${bytes.toLocaleString('en-US')} ${bytes === 1 ? 'byte' : 'bytes'}`;
	}
	const units = ['KB', 'MB', 'GB'];
	let value = bytes / 1024;
	let unit = 0;
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024;
		unit++;
	}
	return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit] ?? 'GB'}`;
}
