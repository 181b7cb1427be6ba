// The renderer's only door to the main process: start sign-in, and hear how it goes.
const { contextBridge, ipcRenderer } = require('electron');

contextBridge.exposeInMainWorld('launcher', {
  signIn: () => ipcRenderer.invoke('auth:sign-in'),
  onStatus: (callback) => {
    ipcRenderer.on('auth:status', (_event, status) => callback(status));
  },
});
