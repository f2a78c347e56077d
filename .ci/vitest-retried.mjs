// A Vitest reporter for CI: appends one line per test that passed only on a retry to the file
// named by VITEST_RETRIED_FILE, so the run's summary can name it.
import { appendFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

export default class RetriedReporter {
  onTestCaseResult(testCase) {
    const file = process.env.VITEST_RETRIED_FILE;
    const retries = testCase.diagnostic()?.retryCount ?? 0;
    if (!file || retries === 0 || testCase.result().state !== 'passed') return;
    appendFileSync(
      file,
      `${relative(root, testCase.module.moduleId)} > ${testCase.fullName} (passed on retry ${retries})\n`,
    );
  }
}
