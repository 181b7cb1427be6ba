// Main process of a minimal launcher: the sign-in runs here, the renderer only asks for it and
// learns the outcome (a name or "signed in"), never the tokens.
const path = require('node:path');
const { app, BrowserWindow, ipcMain, shell } = require('electron');
const { createElectronClient } = require('social-sdk-auth/electron');

// Against the emulator, set these from what `npx social-sdk-auth emulator` prints.
const applicationId = process.env.APP_ID || '1234567890123456789';
const webBase = process.env.WEB_BASE || undefined; // default https://discord.com
const apiBase = process.env.API_BASE || undefined; // default https://discord.com/api/v10

let mainWindow = null;
let tokens = null; // main-process memory only; see docs/tokens.md to keep them across runs

// Before 'ready': on macOS the redirect that launched the app arrives as an early open-url.
const { client, registration } = createElectronClient(app, shell, {
  applicationId,
  webBase,
  apiBase,
  onUrl: (_url, { consumed }) => {
    showWindow();
    // Not consumed: a redirect for a sign-in this process did not start (the launcher was
    // closed while the browser was open). Never log the URL: it carries a single-use code.
    if (!consumed && !client.isAuthorizing()) send('auth:status', { status: 'signed-out', message: 'Sign-in was interrupted. Please sign in again.' });
  },
  onOpenUrlFailed: () => {
    send('auth:status', { status: 'signing-in', message: 'Could not open the browser. Please open it and try again.' });
  },
});

if (!registration.primary) {
  // A second instance: Electron has passed our command line (with the redirect) to the first one.
  app.quit();
} else {
  // A relaunch without a URL (double-clicking the icon) should bring the window back too.
  app.on('second-instance', () => showWindow());

  ipcMain.handle('auth:sign-in', async () => {
    send('auth:status', { status: 'signing-in', message: 'Continue in your browser…' });
    try {
      // Scopes default to openid sdk.social_layer; the redirect URI is discord-{applicationId}:/authorize/callback.
      tokens = await client.signIn();
      return { status: 'signed-in', name: await displayName(tokens) };
    } catch (error) {
      return { status: 'signed-out', message: `Sign-in failed: ${error.message}` };
    }
  });

  app
    .whenReady()
    .then(() => {
      createWindow();
      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0) createWindow();
      });
    })
    .catch((error) => {
      console.error(`The launcher could not start: ${error.message}`);
      app.quit();
    });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}

function createWindow() {
  mainWindow = new BrowserWindow({
    width: 480,
    height: 320,
    webPreferences: {
      preload: path.join(__dirname, 'preload.js'),
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
    },
  });
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
  mainWindow.loadFile('index.html').catch((error) => console.error(`Could not load the window: ${error.message}`));
}

function showWindow() {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

function send(channel, message) {
  if (mainWindow) mainWindow.webContents.send(channel, message);
}

/** The player's name from /users/@me; "signed in" when the API does not tell. */
async function displayName({ accessToken }) {
  try {
    const base = apiBase || 'https://discord.com/api/v10';
    const response = await fetch(`${base}/users/@me`, { headers: { authorization: `Bearer ${accessToken}` } });
    if (!response.ok) return undefined;
    const user = await response.json();
    return user.global_name || user.username || undefined;
  } catch {
    return undefined;
  }
}
