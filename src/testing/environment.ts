// A fixed environment for session.environment in specs and benches (the real one reads VS Code).
import type { EnvironmentFacts, EnvironmentReader } from '../reminders/builtin/sessionEnvironment';

export const TEST_ENVIRONMENT: EnvironmentFacts = { platform: 'linux', arch: 'x64', release: '6.1.0', shell: '/bin/bash', folders: ['/work/project'] };

/** A reader of `facts` (the folders given, else TEST_ENVIRONMENT's). */
export function fixedEnvironment(folders: readonly string[] = TEST_ENVIRONMENT.folders): EnvironmentReader {
	return () => ({ ...TEST_ENVIRONMENT, folders });
}
