// A JupyterLab plugin of the JupyterLite site alone (scripts/lite.sh builds it in): a Run All
// asked for while Python is still starting is not lost. The learner is told that Python is
// starting, and every cell runs once it is ready.
//
// Why JupyterLab alone loses it: its Run All runs each cell at once. A cell that finds no
// kernel yet asks the notebook to start one, a second one beside the kernel the page is
// already starting, which is then shut down (the page logs "<kernel id> was disposed"); a cell
// that finds the kernel not yet connected is cleared and counted as run. So the Run All ends
// "done" with no cell run and nothing said. Here a Run All asked for before Python is ready is
// held back until the notebook's kernel is idle, and only then handed to JupyterLab.
//
// Hand-written in the shape JupyterLab loads an extension in (a container with init and get),
// with no import: it uses only the app it is given. A command cannot be wrapped through
// JupyterLab's API, so the app's command registry is: its `execute` is what menus, key
// bindings, the palette and buttons all call.
(function () {
  const RUN_ALL = "notebook:run-all-cells";
  const TEXTS = {
    en: "Python is still starting: the cells will run as soon as it is ready.",
    ca: "Python encara s'està iniciant: les cel·les s'executaran tan bon punt estigui a punt.",
    pl: "Python jeszcze się uruchamia: komórki zostaną wykonane, gdy tylko będzie gotowy.",
    uk: "Python ще запускається: комірки виконаються, щойно він буде готовий.",
  };
  const words = () => TEXTS[(navigator.language || "en").slice(0, 2).toLowerCase()] || TEXTS.en;
  const kernelOf = (context) => (context.session && context.session.kernel) || null;

  // Python has started in this notebook: its kernel answers (idle, or already running code).
  function started(context) {
    const kernel = kernelOf(context);
    return !!kernel && !context.hasNoKernel && (kernel.status === "idle" || kernel.status === "busy");
  }

  // Waiting would never end: the notebook was closed, or its kernel died while starting.
  function hopeless(context) {
    const kernel = kernelOf(context);
    return context.isDisposed || (!!kernel && kernel.status === "dead");
  }

  // Resolves once Python has started in the notebook, or waiting for it is hopeless.
  function ready(context) {
    return new Promise((resolve) => {
      const signals = [context.statusChanged, context.kernelChanged, context.connectionStatusChanged, context.disposed];
      const check = () => {
        if (!started(context) && !hopeless(context)) return;
        for (const signal of signals) signal.disconnect(check);
        resolve();
      };
      for (const signal of signals) signal.connect(check);
      context.ready.then(check, check);
      check();
    });
  }

  const plugin = {
    id: "reversi-run-when-ready:plugin",
    description: "Holds a Run All asked for while Python starts until it is ready, and says so meanwhile.",
    autoStart: true,
    activate(app) {
      const commands = app.commands;
      const execute = commands.execute.bind(commands);
      const waiting = new Map(); // notebook panel -> its Run All held back (asked twice, it runs once)

      async function runWhenReady(panel, context, args) {
        let note = null;
        try {
          note = await execute("apputils:notify", { message: words(), type: "info", options: { autoClose: false } });
        } catch (error) {
          note = null; // no notifications in this app: the run still waits
        }
        try {
          await ready(context);
        } finally {
          if (note) execute("apputils:dismiss-notification", { id: note });
        }
        if (panel.isDisposed) return false;
        app.shell.activateById(panel.id); // Run All acts on the current notebook
        return execute(RUN_ALL, args);
      }

      commands.execute = (id, args) => {
        const panel = id === RUN_ALL ? app.shell.currentWidget : null;
        const context = panel && panel.sessionContext;
        if (!context || started(context) || hopeless(context)) return execute(id, args);
        if (!waiting.has(panel)) {
          const run = runWhenReady(panel, context, args);
          waiting.set(panel, run);
          const done = () => waiting.delete(panel);
          run.then(done, done);
        }
        return waiting.get(panel);
      };
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
