// A JupyterLab plugin of the JupyterLite site alone (scripts/lite.sh builds it in): a Run All
// asked for while Python is still starting is not lost. JupyterLab then runs no cell and says
// nothing; here the learner is told that Python is starting, and the cells run once it is ready.
// Hand-written in the shape JupyterLab loads an extension in (a container with init and get),
// with no import: it uses only the app it is given.
(function () {
  const RUN_ALL = "notebook:run-all-cells";
  const TEXTS = {
    en: "Python is still starting: the cells will run as soon as it is ready.",
    ca: "Python encara s'està iniciant: les cel·les s'executaran tan bon punt estigui a punt.",
    pl: "Python jeszcze się uruchamia: komórki zostaną wykonane, gdy tylko będzie gotowy.",
    uk: "Python ще запускається: комірки виконаються, щойно він буде готовий.",
  };
  const words = () => TEXTS[(navigator.language || "en").slice(0, 2).toLowerCase()] || TEXTS.en;
  const idle = (context) => context.session && context.session.kernel && context.session.kernel.status === "idle";

  // Resolves once the notebook's kernel is idle: started, with nothing left to do.
  function ready(context) {
    return new Promise((resolve) => {
      const check = () => {
        if (!idle(context)) return;
        context.statusChanged.disconnect(check);
        resolve();
      };
      context.statusChanged.connect(check);
      check();
    });
  }

  const plugin = {
    id: "reversi-run-when-ready:plugin",
    description: "Runs a Run All asked for while Python starts once it is ready, and says so meanwhile.",
    autoStart: true,
    activate(app) {
      const waiting = new Set();
      app.commands.commandExecuted.connect(async (_, { id, args, result }) => {
        if (id !== RUN_ALL) return;
        const panel = app.shell.currentWidget;
        const context = panel && panel.sessionContext;
        if (!context || waiting.has(panel)) return;
        const starting = !idle(context);
        let ran;
        try {
          ran = await result;
        } catch (error) {
          ran = false; // a kernel replaced while it started: nothing ran
        }
        if (ran !== false || !starting) return;
        waiting.add(panel);
        let note = null;
        try {
          note = await app.commands.execute("apputils:notify", {
            message: words(), type: "info", options: { autoClose: false },
          });
        } catch (error) {
          note = null; // no notifications in this app: the run still waits
        }
        try {
          await ready(context);
          if (panel.isDisposed) return;
          app.shell.activateById(panel.id);
          await app.commands.execute(RUN_ALL, args);
        } finally {
          waiting.delete(panel);
          if (note) app.commands.execute("apputils:dismiss-notification", { id: note });
        }
      });
    },
  };

  const root = (window._JUPYTERLAB = window._JUPYTERLAB || {});
  root["reversi-run-when-ready"] = {
    init: () => Promise.resolve(),
    get: (module) =>
      module === "./extension"
        ? Promise.resolve(() => ({ __esModule: true, default: [plugin] }))
        : Promise.reject(new Error(`reversi-run-when-ready has no module ${module}`)),
  };
})();
