/**
 * One drain of the spool as its own process (test/unit/spool.test.ts): `node spoolDrainer.js HOME START_AT
 * [STEP]`. It waits until START_AT (epoch ms) so that several drainers start together, drains once and
 * prints what it did as JSON; with STEP (`claimed`, `checked` or `appended`) it dies by SIGKILL at that step of its
 * first file, as a crash there would.
 */
import { drainSpool } from '../../src/engine/log/spool';

const [home, startAt, crashAt] = process.argv.slice(2);
const die = () => {
  process.kill(process.pid, 'SIGKILL');
};
while (Date.now() < Number(startAt)) {
  // Spinning: a timer would wake each drainer at a different moment.
}
const steps = crashAt ? { [crashAt]: die } : {};
process.stdout.write(JSON.stringify(drainSpool(home, { steps })));
