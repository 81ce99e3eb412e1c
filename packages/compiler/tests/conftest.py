import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # grad_cases is a folder of these tests
