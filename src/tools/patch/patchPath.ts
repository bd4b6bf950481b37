// The paths a patch names, checked without a file system: whatever the patch says, the engine only
// ever yields a relative path below its base (confinement against the real workspace folders,
// symlinks and protected paths is the tool's job, as for Edit).
import { truncateChars } from '../text';
import { PatchError } from './patch';

// C0 controls and DEL: never part of a name a model means, and they would garble the review.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The normal form of a path written in a patch (`label` says where: `*** Update File`), or a
 * PatchError for patch line `line`. `\` counts as a separator (a patch written on Windows, and
 * `..\` must not slip through); `.` segments and repeated separators are dropped.
 */
export function patchPath(raw: string, line: number, label: string): string {
	const path = raw.trim();
	const shown = JSON.stringify(truncateChars(path, 200));
	const refuse = (why: string): never => {
		throw new PatchError(`Invalid patch at line ${line}: ${label} ${why}`, { line });
	};
	if (raw.includes('\0')) {
		refuse(`path ${shown} contains a NUL character.`);
	}
	if (CONTROL.test(raw)) {
		refuse(`path ${shown} contains a control character.`);
	}
	if (path === '') {
		refuse('has no path: expected a file path relative to the workspace folder.');
	}
	if (/^[\\/]/.test(path) || /^[A-Za-z]:/.test(path)) {
		refuse(`path ${shown} is absolute: paths in a patch are relative to the workspace folder (never absolute).`);
	}
	const segments = path.split(/[\\/]+/);
	if (segments.includes('..')) {
		refuse(`path ${shown} has a ".." segment: paths in a patch stay inside the workspace folder and name files below it directly.`);
	}
	if (segments[0] === '~') {
		refuse(`path ${shown} starts with "~": paths in a patch are relative to the workspace folder, not to a home folder.`);
	}
	if (/[\\/]$/.test(path)) {
		refuse(`path ${shown} ends with a separator: it names a folder, and a patch changes files.`);
	}
	const kept = segments.filter((segment) => segment !== '.' && segment !== '');
	if (kept.length === 0) {
		refuse(`path ${shown} names the workspace folder itself, not a file.`);
	}
	return kept.join('/');
}
