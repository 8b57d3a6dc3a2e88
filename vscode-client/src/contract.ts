import { readFileSync } from 'fs';
import * as path from 'path';

/** A palette command; it runs `serverCommand` on the server unless it is handled by the client alone. */
export interface ClientCommand {
    readonly command: string;
    readonly title: string;
    readonly serverCommand?: string;
    readonly arguments?: Readonly<Record<string, unknown>>;
}

export interface Contract {
    readonly configurationSection: string;
    readonly statusNotification: { readonly method: string };
    readonly clientCommands: readonly ClientCommand[];
}

// contract.json is shared with the Python server and the tests, so it ships
// beside out/ and is read as data instead of being restated in TypeScript.
export const contract: Contract = JSON.parse(
    readFileSync(path.join(__dirname, '..', 'contract.json'), 'utf8'),
) as Contract;
