/** The one place the host reads Context Deck's settings; each reader gets plain, checked values (shared/settings.ts). */
import * as vscode from 'vscode';
import { type Settings, readSettings } from '../../shared/settings';

export function currentSettings(): Settings {
  const config = vscode.workspace.getConfiguration('contextDeck');
  return readSettings((key) => config.get(key));
}
