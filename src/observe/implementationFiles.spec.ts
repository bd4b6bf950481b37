import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { isImplementationFile, segmentsInWorkspace } from './implementationFiles';

const ROOT = resolve('/work/project');
const at = (relative: string) => join(ROOT, ...relative.split('/'));
const counts = (relative: string, roots: readonly string[] = [ROOT]) => isImplementationFile(at(relative), roots);

describe('which written files are implementation files', () => {
	it('source code counts by its extension, in any case, tests included', () => {
		for (const file of ['src/a.ts', 'src/view/App.tsx', 'lib/b.mjs', 'main.go', 'src/lib.rs', 'app/models.py', 'Main.JAVA', 'src/a.spec.ts', 'test/test_b.py', 'ui/Card.vue', 'k.kt', 'x.cpp', 'y.h', 'z.cs', 'w.swift']) {
			assert.equal(counts(file), true, file);
		}
	});

	it('documentation, configuration, data, styles and markup do not', () => {
		for (const file of ['README.md', 'notes.txt', 'CHANGELOG.rst', 'guide.adoc', 'package.json', 'tsconfig.json', 'config.yaml', 'Cargo.toml', '.eslintrc', 'data.csv', 'styles.css', 'index.html', 'Makefile', 'Dockerfile', '.gitignore', 'LICENSE']) {
			assert.equal(counts(file), false, file);
		}
	});

	it('lock files, source maps, minified bundles and generated sources do not', () => {
		for (const file of ['package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'Cargo.lock', 'poetry.lock', 'go.sum', 'lib/a.js.map', 'vendor.min.js', 'public/app.min.mjs', 'src/api.generated.ts', 'src/schema.gen.go', 'types/index.d.ts', 'x.d.mts', 'api/service.pb.go', 'api/service_pb2.py', 'Form1.Designer.cs', 'Parser.g.cs']) {
			assert.equal(counts(file), false, file);
		}
	});

	it('nothing under a dependency, build-output, cache, generated or documentation folder, at any depth, in any case', () => {
		for (const file of ['node_modules/lib/index.js', 'packages/app/node_modules/x/y.ts', 'dist/extension.js', 'out/a.js', 'build/main.c', 'target/debug/build.rs', 'vendor/github.com/x/y.go', 'third_party/z.cc', 'coverage/lcov-report/a.js', '.next/server/page.js', 'src/__generated__/types.ts', 'src/generated/client.ts', 'app/__pycache__/m.py', 'docs/example.ts', 'doc/snippets/a.py', 'Build/a.cs', 'DIST/x.js', '.git/hooks/pre-commit.py', '.venv/lib/site.py']) {
			assert.equal(counts(file), false, file);
		}
	});

	it('a name merely containing an excluded word, or a dot file without an extension, is judged on its own', () => {
		assert.equal(counts('src/builder.ts'), true);
		assert.equal(counts('src/distance.py'), true);
		assert.equal(counts('src/docs.ts'), true, 'a file named docs is code, only a folder named docs is excluded');
		assert.equal(counts('.ts'), false, 'a dot file has no extension');
		assert.equal(counts('src/noextension'), false);
	});

	it('folders are judged inside the workspace folder, so a workspace that lives under build/ still counts', () => {
		const root = resolve('/home/me/build/project');
		assert.equal(isImplementationFile(join(root, 'src', 'a.ts'), [root]), true);
		assert.equal(isImplementationFile(join(root, 'dist', 'a.js'), [root]), false);
	});

	it('with nested workspace folders, the broadest one that holds the file decides', () => {
		const inner = join(ROOT, 'out', 'sub');
		assert.deepEqual(segmentsInWorkspace(join(inner, 'a.ts'), [inner, ROOT]), ['out', 'sub', 'a.ts']);
		assert.equal(isImplementationFile(join(inner, 'a.ts'), [inner, ROOT]), false);
	});

	it('a file in no workspace folder is judged on its whole path (conservatively)', () => {
		assert.equal(isImplementationFile(resolve('/elsewhere/src/a.ts'), [ROOT]), true);
		assert.equal(isImplementationFile(resolve('/elsewhere/node_modules/a.ts'), [ROOT]), false);
		assert.equal(isImplementationFile(resolve('/elsewhere/a.ts'), []), true);
	});
});
