"""The German list builder (`raten words build`): dictionary, morphology rules, build, NOTICE."""
