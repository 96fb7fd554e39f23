from aieco.cli import main

main()
