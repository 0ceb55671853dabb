from deepresearch.cli.main import main

raise SystemExit(main())
