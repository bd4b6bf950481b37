// `npm run test:electron`: the same integration suite (test/integration/) in desktop VS Code
// through @vscode/test-electron, over the same packaged .vsix. It downloads VS Code, so it
// needs internet; CI uses the code-server tier instead (`npm run test:integration`).
// Tests that type into the webview need the Chromium driver of the code-server tier and are
// skipped here, saying so.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { buildIntegrationTests, buildLmExtension } from '../harness/buildTests.mjs';
import { repoRoot } from '../harness/tools.mjs';
import { unpackedVsix } from '../../scripts/vsix.mjs';

const { engines } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'aside-electron-'));
try {
	const extensionPath = unpackedVsix(join(work, 'vsix'));
	const extensionTestsPath = await buildIntegrationTests();
	// The chat model for vscode.lm that languageModel.test.ts uses (test/lmExtension/).
	const lmExtension = await buildLmExtension(join(work, 'scripted-models'));
	const workspace = join(work, 'workspace');
	cpSync(join(repoRoot, 'test', 'fixtures', 'workspace'), workspace, { recursive: true });
	await runTests({
		// The oldest VS Code the manifest allows, unless told otherwise.
		version: process.env.ASIDE_VSCODE_VERSION ?? engines.vscode.replace(/^\^/, ''),
		extensionDevelopmentPath: [extensionPath, lmExtension],
		extensionTestsPath,
		extensionTestsEnv: { ASIDE_TEST_HOOKS: '1', ASIDE_EXPECTED_EXTENSION_PATH: extensionPath, ASIDE_ARTIFACTS_DIR: join(repoRoot, 'out', 'integration-artifacts') },
		launchArgs: [workspace, '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes', '--user-data-dir', join(work, 'user-data')],
	});
} catch (error) {
	console.error(`test:electron failed: ${error instanceof Error ? error.message : String(error)}`);
	process.exitCode = 1;
} finally {
	rmSync(work, { recursive: true, force: true });
}
