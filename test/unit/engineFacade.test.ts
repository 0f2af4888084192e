/**
 * The engine's facade (src/engine/index.ts) stays narrow: the host, the CLI and the MCP server reach a project
 * through the feature objects of ProjectEngine (`memory`, `sessions`, `tools`, `context`, `advice`), so the
 * facade exports at most MAX_NAMES names, types included, and the project's store is not one of its members.
 * Counted by the TypeScript compiler on the module's resolved exports: a re-export, a type, a namespace and a
 * `export *` each count every name they bring in, and a value and a type of the same name count once.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const MAX_NAMES = 80;
const FACADE = path.resolve(__dirname, '../../src/engine/index.ts');

function facadeExports(): { names: string[]; checker: ts.TypeChecker; exports: ts.Symbol[] } {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.resolve(__dirname, '../../tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(String(d.messageText)) },
  );
  assert.ok(config, 'tsconfig.json could not be read');
  const program = ts.createProgram([FACADE], { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(FACADE);
  assert.ok(source, 'the facade is not in the program');
  const moduleSymbol = checker.getSymbolAtLocation(source);
  assert.ok(moduleSymbol, 'the facade is not a module');
  const exports = checker.getExportsOfModule(moduleSymbol);
  return { names: exports.map((symbol) => symbol.name).sort(), checker, exports };
}

test(`the engine's facade exports at most ${MAX_NAMES} names, types included, and not the store`, () => {
  const { names, checker, exports } = facadeExports();
  assert.ok(
    names.length <= MAX_NAMES,
    `src/engine/index.ts exports ${names.length} names (at most ${MAX_NAMES}): a function acting on one project ` +
      `belongs on a feature object of ProjectEngine, an internal nobody outside the engine uses is not exported.\n` +
      names.join(', '),
  );
  const project = exports.find((symbol) => symbol.name === 'ProjectEngine');
  assert.ok(project, 'ProjectEngine is exported');
  const projectType = checker.getDeclaredTypeOfSymbol(project);
  for (const feature of ['memory', 'sessions', 'tools', 'context', 'advice'])
    assert.ok(checker.getPropertyOfType(projectType, feature), `ProjectEngine.${feature} is reachable`);
  assert.equal(checker.getPropertyOfType(projectType, 'store'), undefined, 'ProjectEngine.store is not');
});
