// The plan files on disk: `<sessions>/<id>.plans/<name>.md`, beside the chat's transcript (and its
// `<id>.files/`). Written atomically (a temporary file, then a rename), so a failed write never
// leaves half a plan where an approved one is expected.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSessionId } from '../transcript/paths';
import type { PlanFiles } from './plans';

const PLAN_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.md$/;

/** The folder of a session's plan files. */
export function plansDir(sessionsDir: string, sessionId: string): string {
	checkSessionId(sessionId);
	return join(sessionsDir, `${sessionId}.plans`);
}

export class DirectoryPlanFiles implements PlanFiles {
	constructor(private readonly sessionsDir: string) {}

	write(sessionId: string, name: string, text: string): string {
		if (!PLAN_NAME.test(name)) {
			throw new Error(`Invalid plan file name ${JSON.stringify(name)}.`);
		}
		const dir = plansDir(this.sessionsDir, sessionId);
		mkdirSync(dir, { recursive: true });
		const file = join(dir, name);
		const temporary = `${file}.${process.pid}.tmp`;
		try {
			writeFileSync(temporary, text, 'utf8');
			renameSync(temporary, file);
		} catch (error) {
			rmSync(temporary, { force: true });
			throw error;
		}
		return file;
	}
}
