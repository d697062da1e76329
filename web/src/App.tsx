import { DEFAULT_SCENARIO_PATH, defaultScenario } from './scenarios/defaultScenario';
import { summarizeScenario } from './scenarios/summary';

export function App() {
  return (
    <div className="page">
      <header className="masthead">
        <h1>SSD Playground</h1>
        <p className="tagline">
          A browser playground for SSD architectures: a C++ model of NAND flash, the flash
          translation layer and research devices runs right here, so you can watch a design work
          and see why it behaves as it does.
        </p>
      </header>

      <main>
        <DefaultScenarioCard />
      </main>

      <footer className="footer">
        <p>
          The same model runs natively as a command-line simulator:{' '}
          <code>npm run sim -- run {DEFAULT_SCENARIO_PATH}</code>
        </p>
      </footer>
    </div>
  );
}

function DefaultScenarioCard() {
  if (defaultScenario === undefined) {
    return (
      <section className="card card--warning" aria-labelledby="scenario-heading">
        <h2 id="scenario-heading">Default scenario not found</h2>
        <p>
          <code>{DEFAULT_SCENARIO_PATH}</code> was not present when this site was built.
        </p>
      </section>
    );
  }

  const result = summarizeScenario(defaultScenario);
  if (!result.ok) {
    return (
      <section className="card card--warning" aria-labelledby="scenario-heading">
        <h2 id="scenario-heading">Default scenario is invalid</h2>
        <p>
          <code>{DEFAULT_SCENARIO_PATH}</code>: {result.error}
        </p>
      </section>
    );
  }

  const { title, description, json } = result.summary;
  return (
    <section className="card" aria-labelledby="scenario-heading" data-testid="default-scenario">
      <p className="eyebrow">Default scenario</p>
      <h2 id="scenario-heading" data-testid="scenario-title">
        {title}
      </h2>
      <p className="description" data-testid="scenario-description">
        {description}
      </p>
      <details className="json" open>
        <summary>
          Scenario JSON <span className="muted">({DEFAULT_SCENARIO_PATH})</span>
        </summary>
        <pre>
          <code>{json}</code>
        </pre>
      </details>
    </section>
  );
}
