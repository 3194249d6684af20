import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A certificate authority made for one test or benchmark run, and a server certificate it signed. */
export interface TestCa {
  /** PEM file of the CA certificate (for NODE_EXTRA_CA_CERTS). */
  caPath: string;
  cert: Buffer;
  key: Buffer;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * Creates a fresh CA and a server certificate for `localhost`, 127.0.0.1-127.0.0.8 and ::1 in
 * `dir`, with the openssl command-line tool (P-256 keys, valid for two days). Nothing is added to
 * any trust store: a process trusts the CA only when started with NODE_EXTRA_CA_CERTS=caPath.
 */
export function createTestCa(dir: string): TestCa {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '2',
      '-subj',
      '/CN=dealer-reviews test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  openssl(
    ['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost'],
    dir,
  );
  const ips = Array.from({ length: 8 }, (_, i) => `IP:127.0.0.${i + 1}`).join(',');
  writeFileSync(
    join(dir, 'server.ext'),
    [
      `subjectAltName=DNS:localhost,${ips},IP:::1`,
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature',
      'extendedKeyUsage=serverAuth',
    ].join('\n'),
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.crt',
      '-days',
      '2',
      '-extfile',
      'server.ext',
    ],
    dir,
  );
  return {
    caPath: join(dir, 'ca.crt'),
    cert: readFileSync(join(dir, 'server.crt')),
    key: readFileSync(join(dir, 'server.key')),
  };
}
