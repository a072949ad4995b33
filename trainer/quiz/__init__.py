"""The quiz: the question bank, building it, grading answers and calibration scores."""
